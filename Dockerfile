# The Valormr bot in a container: `docker build -t valormr .`, then
#   docker run -d --name valormr --env-file .env -v valormr-data:/data valormr      (Discord)
#   docker run -it --rm -v valormr-data:/data valormr                              (console, no token)
# See docs/deploy.md. Node runs as PID 1 and handles SIGTERM itself (docker stop: exit within 2 s).

# Build: full image (python3, make and g++ in case better-sqlite3 has to compile).
FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY commands ./commands
COPY assets ./assets
COPY migrations ./migrations
COPY migrations-pg ./migrations-pg
RUN npm run build && npm prune --omit=dev

# Run: slim image, compiled JavaScript, production dependencies only, not root.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=131072 \
    MIMALLOC_PURGE_DELAY=0 \
    DATABASE_PATH=/data/valormr.db \
    LOG_LEVEL=info
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=2", "--heap-growing-percent=50", "--no-parallel-scavenge", "dist/src/main.js"]
