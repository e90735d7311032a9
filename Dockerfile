# The browser bundles (the console, the web SDK) are built with the dev dependencies, which the image leaves out.
FROM node:24-slim AS web
WORKDIR /build
COPY package.json package-lock.json ./
# The typed client is an npm workspace of the root package: npm ci needs its manifest, not its sources.
COPY clients/node/package.json ./clients/node/
RUN npm ci --ignore-scripts
COPY tsconfig.json ./
COPY web ./web
COPY src ./src
RUN node web/build.ts

# One image for every process: the ingress, each worker kind and the sandbox gateways differ only in their command.
FROM node:24-slim

# openssl makes the sandbox gateways' self-signed certificate at start-up.
RUN apt-get update \
  && apt-get install -y --no-install-recommends openssl \
  && rm -rf /var/lib/apt/lists/*

ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
COPY clients/node/package.json ./clients/node/
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
# Node 24 runs the TypeScript sources directly (type stripping): the server needs no build step.
# Only what a deployment runs: the ingress and workers, the operator commands (bin/) and the sandbox gateways. The
# tests, the developer tools (tools/) and npm start with its local servers (local/) stay out.
COPY Procfile tsconfig.json ./
COPY src ./src
COPY workers ./workers
COPY bin ./bin
COPY sandbox ./sandbox
COPY --from=web /build/dist/web ./dist/web

# The official image's unprivileged user; nothing under /app is writable by it.
USER node
EXPOSE 3000
CMD ["node", "src/server.ts"]
