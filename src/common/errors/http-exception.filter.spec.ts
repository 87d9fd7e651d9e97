import { ArgumentsHost, ExecutionContext, Logger, NotFoundException } from '@nestjs/common';
import { HttpAdapterHost, Reflector } from '@nestjs/core';
import express from 'express';
import type { I18nService } from 'nestjs-i18n';
import { testConfig } from '../../../test/support/unit/config';
import { AppException } from './app.exception';
import { AuthErrors } from './error-codes';
import { ErrorPresenter, PresentedError } from './error-presenter';
import { declaredErrorShape, ErrorShape, recordErrorShape } from './error-shape';
import { ErrorShapes, errorMessage } from './error-shapes';
import { HttpExceptionFilter } from './http-exception.filter';

const i18n = { translate: (key: string) => key } as unknown as I18nService;

interface Written {
  status?: number;
  headers: Record<string, string>;
  body?: unknown;
}

function hostFor(request: object, written: Written): ArgumentsHost {
  const response = {
    headersSent: false,
    status: (status: number) => (written.status = status),
    setHeader: (name: string, value: string) => (written.headers[name] = value),
    json: (body: unknown) => (written.body = body),
  };
  return {
    getType: () => 'http',
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
  } as unknown as ArgumentsHost;
}

@ErrorShape('bracketed')
class ShapedController {}

class PlainController {}

function routed(controller: object): object {
  const request = { headers: {}, method: 'GET', path: '/x', id: 'request-1' };
  const context = { getClass: () => controller } as unknown as ExecutionContext;
  recordErrorShape(new Reflector(), context, request);
  return request;
}

describe('HttpExceptionFilter answers in the shape the matched controller declares', () => {
  const shapes = new ErrorShapes();
  const bracketed = jest.fn((presented: PresentedError) => ({
    status: presented.status,
    headers: presented.headers,
    body: { bracketed: `[${presented.body.code}]` },
  }));
  shapes.register('bracketed', { write: bracketed });
  const presenter = new ErrorPresenter(i18n, testConfig().i18n);
  const adapterHost = { httpAdapter: { getInstance: () => express() } } as unknown as HttpAdapterHost;
  const filter = new HttpExceptionFilter(presenter, shapes, adapterHost, 'en-US');
  const refusal = new AppException(AuthErrors.TokenMissing, 'token is missing', {
    headers: { 'WWW-Authenticate': 'Bearer' },
  });

  beforeAll(() => Logger.overrideLogger(false));

  it('hands the presented error and the thrown one to the registered writer', () => {
    const written: Written = { headers: {} };
    filter.catch(refusal, hostFor(routed(ShapedController), written));
    expect(written).toEqual({
      status: 401,
      headers: { 'WWW-Authenticate': 'Bearer', 'Content-Language': 'en-US' },
      body: { bracketed: '[agentRetrieval.Unauthorized.TokenMissing]' },
    });
    expect(bracketed).toHaveBeenCalledWith(expect.objectContaining({ status: 401 }), refusal);
  });

  it('writes the default body for a controller that declares nothing', () => {
    const request = routed(PlainController);
    expect(declaredErrorShape(request)).toBeUndefined();
    const written: Written = { headers: {} };
    filter.catch(refusal, hostFor(request, written));
    expect(written.body).toMatchObject({
      code: 'agentRetrieval.Unauthorized.TokenMissing',
      details: 'token is missing',
    });
  });

  it('writes the default body for a request no route matched', () => {
    const written: Written = { headers: {} };
    filter.catch(new NotFoundException('Cannot GET /x'), hostFor({ headers: {}, method: 'GET', path: '/x' }, written));
    expect(written).toMatchObject({ status: 404, body: { code: 'Public.NotFound', details: 'http.noRoute' } });
  });
});

describe('ErrorShapes', () => {
  it('refuses a second writer for the same shape and has none for an unknown or absent one', () => {
    const shapes = new ErrorShapes();
    const writer = { write: jest.fn() };
    shapes.register('openai', writer);
    expect(() => shapes.register('openai', writer)).toThrow('error shape "openai" is registered twice');
    expect(shapes.writerFor('openai')).toBe(writer);
    expect(shapes.writerFor('other')).toBeUndefined();
    expect(shapes.writerFor(undefined)).toBeUndefined();
  });

  it('words one message from the description and a text detail', () => {
    const body = { code: 'c', description: 'Tool not found', solution: 's', link: 'l' };
    expect(errorMessage({ ...body, details: 'no tool x' })).toBe('Tool not found: no tool x');
    expect(errorMessage({ ...body, details: { request_id: 'r' } })).toBe('Tool not found');
    expect(errorMessage(body)).toBe('Tool not found');
  });
});
