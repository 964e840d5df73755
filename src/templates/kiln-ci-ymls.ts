// Kiln's own .gitlab-ci.yml templates (GET /templates/gitlab_ci_ymls): a test pipeline per common
// toolchain, using only keywords Kiln's CI runs (stages, image, cache, script, artifacts). Written for
// Kiln; versions and commands are examples to change.
const HEADER = '# A starting point from Kiln: change the image, the commands and the cached paths to fit the project.\n';

export const KILN_CI_YMLS: Record<string, string> = {
  Bash: `${HEADER}stages:
  - test

check:
  stage: test
  image: alpine:3.20
  script:
    - echo "Running on $CI_COMMIT_REF_NAME at $CI_COMMIT_SHORT_SHA"
    - sh -n ./*.sh
`,
  Go: `${HEADER}stages:
  - test
  - build

test:
  stage: test
  image: golang:1.23
  script:
    - go vet ./...
    - go test ./...

build:
  stage: build
  image: golang:1.23
  script:
    - go build -o bin/app .
  artifacts:
    paths:
      - bin/
`,
  Node: `${HEADER}stages:
  - test

test:
  stage: test
  image: node:22
  cache:
    key:
      files:
        - package-lock.json
    paths:
      - .npm/
  script:
    - npm ci --cache .npm --prefer-offline
    - npm test
`,
  Python: `${HEADER}stages:
  - test

test:
  stage: test
  image: python:3.13
  variables:
    PIP_CACHE_DIR: "$CI_PROJECT_DIR/.cache/pip"
  cache:
    paths:
      - .cache/pip
  script:
    - pip install -r requirements.txt
    - python -m pytest
`,
  Rust: `${HEADER}stages:
  - test

test:
  stage: test
  image: rust:1
  variables:
    CARGO_HOME: "$CI_PROJECT_DIR/.cargo"
  cache:
    paths:
      - .cargo/
      - target/
  script:
    - cargo test --locked
`,
};
