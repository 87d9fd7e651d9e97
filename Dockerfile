# syntax=docker/dockerfile:1
# Agent Retrieval — multi-stage build on node:22-slim, non-root runtime.

FROM node:22-slim AS build
WORKDIR /app
# npm 10 ignores package.json allowScripts; keep swagger-ui's telemetry postinstall quiet and offline.
ENV SCARF_ANALYTICS=false
# better-sqlite3 compiles from source when no prebuilt binary matches.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json nest-cli.json ./
COPY src ./src
# The web console (console/ → dist/web-console) is built by the same `npm run build`.
COPY scripts ./scripts
COPY console ./console
RUN npm run build && npm prune --omit=dev

FROM node:22-slim AS runtime
# USER node cannot write /app: what the service writes goes under /tmp (an emptyDir on Kubernetes),
# and the network index files under INDEX_DIR, a volume (`npm run index` can fill it ahead of time).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=30779 \
    PRIVATE_PORT=30780 \
    DATA_DIR=/tmp/agent-retrieval \
    WORKSPACE_ROOT=/tmp/agent-retrieval/workspaces \
    INDEX_DIR=/var/lib/agent-retrieval/indexes
RUN mkdir -p /var/lib/agent-retrieval/indexes && chown -R node:node /var/lib/agent-retrieval
VOLUME /var/lib/agent-retrieval/indexes
WORKDIR /app
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node package.json ./
COPY --chown=node:node bin ./bin
COPY --chown=node:node scripts ./scripts
COPY --chown=node:node i18n ./i18n
COPY --chown=node:node examples ./examples
USER node
# Only the public port: PRIVATE_PORT (the private prefix, which trusts x-account-id) stays unpublished.
EXPOSE 30779
# Busy is not dead: under search load the probe waits behind queued work (p99 2 s measured), so allow
# 5 s per check and four misses (~1 min) before "unhealthy"; indexing large networks delays the port.
HEALTHCHECK --interval=15s --timeout=5s --start-period=300s --retries=4 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||30779)+'/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
STOPSIGNAL SIGTERM
CMD ["node", "dist/main.js"]
