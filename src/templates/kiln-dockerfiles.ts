// Kiln's own Dockerfile templates (GET /templates/dockerfiles): a short starting point per common
// runtime, written for Kiln. Versions are examples to change; each file says what to edit.
const HEADER = '# A starting point from Kiln: change the base image version, the files copied and the command to fit the project.\n';

export const KILN_DOCKERFILES: Record<string, string> = {
  Go: `${HEADER}# Build in a full Go image, then run the static binary from a small one.
FROM golang:1.23 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -o /out/app .

FROM gcr.io/distroless/static-debian12
COPY --from=build /out/app /app
USER nonroot
ENTRYPOINT ["/app"]
`,
  Node: `${HEADER}FROM node:22-alpine
WORKDIR /app
ENV NODE_ENV=production
# The lock file first: the dependency layer is rebuilt only when it changes.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev
COPY . .
USER node
EXPOSE 3000
CMD ["node", "index.js"]
`,
  Python: `${HEADER}FROM python:3.13-slim
WORKDIR /app
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
RUN useradd --create-home app
USER app
EXPOSE 8000
CMD ["python", "main.py"]
`,
  Ruby: `${HEADER}FROM ruby:3.3-slim
WORKDIR /app
ENV BUNDLE_WITHOUT=development:test
COPY Gemfile Gemfile.lock ./
RUN bundle install
COPY . .
RUN useradd --create-home app
USER app
EXPOSE 3000
CMD ["bundle", "exec", "ruby", "app.rb"]
`,
  'Static-Site': `${HEADER}# Serves the files of public/ with nginx.
FROM nginx:stable-alpine
COPY public/ /usr/share/nginx/html/
EXPOSE 80
`,
};
