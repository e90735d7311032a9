# One image for every process: the ingress, each worker kind and the sandbox gateways differ only in their command.
FROM node:24-slim

# openssl makes the sandbox gateways' self-signed certificate at start-up.
RUN apt-get update \
  && apt-get install -y --no-install-recommends openssl \
  && rm -rf /var/lib/apt/lists/*

ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
# Node 24 runs the TypeScript sources directly (type stripping): there is no build step.
COPY Procfile tsconfig.json ./
COPY src ./src
COPY workers ./workers
COPY scripts ./scripts

# The official image's unprivileged user; nothing under /app is writable by it.
USER node
EXPOSE 3000
CMD ["node", "src/server.ts"]
