# lshdp in a container, for `lshdp cluster k8s` (one pod per shard) or any engine that runs images.
#   docker build -t lshdp .
#   docker run --rm -v "$PWD/results:/results" lshdp run configs/quickstart.yaml --out /results/quickstart
# Builder: install everything and compile TypeScript to dist/.
FROM node:20-slim AS builder
WORKDIR /lshdp
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json ./
COPY src ./src
RUN npx tsc -p tsconfig.json

# Runtime: production dependencies and the built dist/ only.
FROM node:20-slim
WORKDIR /lshdp
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=builder /lshdp/dist ./dist
COPY bin ./bin
COPY configs ./configs
RUN ln -s /lshdp/bin/lshdp /usr/local/bin/lshdp
ENTRYPOINT ["lshdp"]
