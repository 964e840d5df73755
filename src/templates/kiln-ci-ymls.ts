// Kiln's own .gitlab-ci.yml templates (GET /templates/gitlab_ci_ymls): a test pipeline per common
// toolchain, using only keywords Kiln's CI runs (stages, image, cache, script, artifacts). Written for
// Kiln; versions and commands are examples to change. Keys are GitLab's template names where it has
// one for the toolchain (`Nodejs`, `C++`, `dotNET`): clients and scripts ask for them by name.
const HEADER = '# A starting point from Kiln: change the image, the commands and the cached paths to fit the project.\n';

interface OneJob {
  image: string;
  script: string[];
  /** Paths kept between pipelines (dependency caches inside the project directory). */
  cache?: string[];
  variables?: Record<string, string>;
  /** Paths kept from the job (a built document, a binary). */
  artifacts?: string[];
}

const list = (items: string[], indent: string) => items.map((item) => `${indent}- ${item}\n`).join('');

/** A pipeline of one `test` job: the smaller toolchains need no more. */
function oneJob(job: OneJob): string {
  const variables = job.variables ? `  variables:\n${Object.entries(job.variables).map(([name, value]) => `    ${name}: "${value}"\n`).join('')}` : '';
  const cache = job.cache ? `  cache:\n    paths:\n${list(job.cache, '      ')}` : '';
  const artifacts = job.artifacts ? `  artifacts:\n    paths:\n${list(job.artifacts, '      ')}` : '';
  return `${HEADER}stages:\n  - test\n\ntest:\n  stage: test\n  image: ${job.image}\n${variables}${cache}  script:\n${list(job.script, '    ')}${artifacts}`;
}

const ONE_JOB: Record<string, OneJob> = {
  'C++': { image: 'gcc:14', script: ['cmake -S . -B build', 'cmake --build build', 'ctest --test-dir build --output-on-failure'], cache: ['build/'] },
  Clojure: { image: 'clojure:lein', variables: { LEIN_HOME: '$CI_PROJECT_DIR/.lein' }, cache: ['.lein/', '.m2/'], script: ['lein test'] },
  Crystal: { image: 'crystallang/crystal:latest', cache: ['lib/'], script: ['shards install', 'crystal spec'] },
  Dart: { image: 'dart:stable', variables: { PUB_CACHE: '$CI_PROJECT_DIR/.pub-cache' }, cache: ['.pub-cache/'], script: ['dart pub get', 'dart analyze', 'dart test'] },
  Django: { image: 'python:3.13', variables: { PIP_CACHE_DIR: '$CI_PROJECT_DIR/.cache/pip' }, cache: ['.cache/pip'], script: ['pip install -r requirements.txt', 'python manage.py check', 'python manage.py test'] },
  dotNET: { image: 'mcr.microsoft.com/dotnet/sdk:8.0', variables: { NUGET_PACKAGES: '$CI_PROJECT_DIR/.nuget' }, cache: ['.nuget/'], script: ['dotnet restore', 'dotnet build --no-restore', 'dotnet test --no-build'] },
  Elixir: { image: 'elixir:1.17', variables: { MIX_ENV: 'test' }, cache: ['deps/', '_build/'], script: ['mix local.hex --force', 'mix deps.get', 'mix test'] },
  Gradle: { image: 'gradle:8-jdk21', variables: { GRADLE_USER_HOME: '$CI_PROJECT_DIR/.gradle' }, cache: ['.gradle/'], script: ['gradle check --no-daemon'] },
  Haskell: { image: 'haskell:9', variables: { STACK_ROOT: '$CI_PROJECT_DIR/.stack' }, cache: ['.stack/', '.stack-work/'], script: ['stack --no-terminal test'] },
  Julia: { image: 'julia:1.11', variables: { JULIA_DEPOT_PATH: '$CI_PROJECT_DIR/.julia' }, cache: ['.julia/'], script: ['julia --project=. -e "using Pkg; Pkg.instantiate(); Pkg.test()"'] },
  LaTeX: { image: 'texlive/texlive:latest', script: ['latexmk -pdf main.tex'], artifacts: ['main.pdf'] },
  Maven: { image: 'maven:3-eclipse-temurin-21', variables: { MAVEN_OPTS: '-Dmaven.repo.local=$CI_PROJECT_DIR/.m2/repository' }, cache: ['.m2/repository/'], script: ['mvn --batch-mode verify'] },
  PHP: { image: 'composer:2', cache: ['vendor/'], script: ['composer install --no-interaction', 'vendor/bin/phpunit'] },
  Ruby: { image: 'ruby:3.3', variables: { BUNDLE_PATH: 'vendor/bundle' }, cache: ['vendor/bundle/'], script: ['bundle install', 'bundle exec rake test'] },
  Scala: { image: 'sbtscala/scala-sbt:eclipse-temurin-21.0.5_11_1.10.7_3.6.2', cache: ['.ivy2/', '.sbt/'], script: ['sbt -Dsbt.ivy.home=.ivy2 -Dsbt.global.base=.sbt test'] },
  Swift: { image: 'swift:6.0', cache: ['.build/'], script: ['swift build', 'swift test'] },
  Terraform: { image: 'hashicorp/terraform:1.9', cache: ['.terraform/'], script: ['terraform init -backend=false', 'terraform fmt -check', 'terraform validate'] },
};

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
  Nodejs: `${HEADER}stages:
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
  ...Object.fromEntries(Object.entries(ONE_JOB).map(([key, job]) => [key, oneJob(job)])),
};
