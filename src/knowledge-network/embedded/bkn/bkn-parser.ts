import { BknDocumentReader } from './bkn-document';
import {
  ParsedActionType,
  ParsedConceptGroup,
  ParsedMetricType,
  ParsedNetwork,
  ParsedObjectType,
  ParsedRelationType,
} from './bkn-definitions';
import { BknSections } from './bkn-sections';
import { ActionTypeParser } from './action-type.parser';
import { MetricTypeParser } from './metric-type.parser';
import { ObjectTypeParser } from './object-type.parser';
import { RelationTypeParser } from './relation-type.parser';

/** Parses the text of one `.bkn` file by kind; every failure is a BknFormatError naming file and line. */
export class BknParser {
  private readonly reader = new BknDocumentReader();
  private readonly objectTypes = new ObjectTypeParser();
  private readonly relationTypes = new RelationTypeParser();
  private readonly actionTypes = new ActionTypeParser();
  private readonly metricTypes = new MetricTypeParser();

  network(file: string, text: string): ParsedNetwork {
    const document = this.reader.read(file, text);
    const sections = new BknSections(document);
    sections.expectType('knowledge_network');
    const comment = document.description.filter((line) => line !== '').join('\n') || undefined;
    return {
      id: sections.id(),
      name: sections.text('name') ?? document.title?.text ?? sections.id(),
      comment,
      tags: sections.tags(),
      origin: { file, line: 1 },
    };
  }

  objectType(file: string, text: string): ParsedObjectType {
    return this.objectTypes.parse(this.reader.read(file, text));
  }

  relationType(file: string, text: string): ParsedRelationType {
    return this.relationTypes.parse(this.reader.read(file, text));
  }

  actionType(file: string, text: string): ParsedActionType {
    return this.actionTypes.parse(this.reader.read(file, text));
  }

  metricType(file: string, text: string): ParsedMetricType {
    return this.metricTypes.parse(this.reader.read(file, text));
  }

  conceptGroup(file: string, text: string): ParsedConceptGroup {
    const document = this.reader.read(file, text);
    const sections = new BknSections(document);
    sections.expectType('concept_group');
    const section = sections.require('object_types', 'Object Types');
    const table = sections.table(section, ['id'], 'ID | Name | Description');
    const ids = table.rows.map((row) => row.cells.id?.trim() ?? '').filter((id) => id !== '');
    return {
      group: {
        id: sections.id(),
        name: sections.name(),
        comment: sections.description(),
        object_type_ids: ids,
      },
      origin: { file, line: document.definition?.line ?? 1 },
    };
  }
}
