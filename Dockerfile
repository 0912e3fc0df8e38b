# syntax=docker/dockerfile:1
# SkipPass in a container (issue 14, ADR 0017). Three stages: build with every dependency (vite,
# tsc), install only the production ones, and a runtime image holding just what `node
# dist/server/main.js` reads: dist/, drizzle/ (migrations, read at start), package.json ("type":
# "module"), the production node_modules and the admin launcher.
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
# DATA_DIR holds the purchase spool (purchases taken while PostgreSQL is away), mail files when no
# SMTP_URL is set, and the embedded database when no DATABASE_URL is set: it must outlive the
# container, one volume per instance (a second server on the same DATA_DIR refuses to start).
ENV PORT=3000 HOST=0.0.0.0 DATA_DIR=/data
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json package-lock.json ./
COPY drizzle ./drizzle
COPY scripts/admin.mjs ./scripts/admin.mjs
# The image's own `node` user (uid 1000), by number so an orchestrator's runAsNonRoot can check it.
RUN mkdir -p /data && chown 1000:1000 /data
USER 1000:1000
VOLUME ["/data"]
EXPOSE 3000
# main.ts finishes the requests in flight on SIGTERM within SHUTDOWN_GRACE_MS (20 s by default);
# give the container longer than that before the engine kills it: `docker stop -t 30`,
# compose's stop_grace_period: 30s, Kubernetes' terminationGracePeriodSeconds: 30.
STOPSIGNAL SIGTERM
# Liveness, not readiness: a process whose database is away still takes purchases into its spool,
# and restarting it would not bring the database back. The proxy routes on /healthz/ready.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/server/main.js"]
