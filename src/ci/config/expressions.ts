// GitLab's CI/CD variable expressions (`rules:if`, `only:variables`; Gitlab::Ci::Pipeline::Expression):
// `$VAR`, string literals, `/regex/flags` (RE2), `null`, `==` `!=` `=~` `!~`, `&&` `||` and parentheses.
// Comparisons bind tighter than `&&`, which binds tighter than `||`. A bare variable is true when it is
// defined and not empty; `=~` matches anywhere in the string. At most 100 tokens; any lexing or parsing
// problem is the one error GitLab reports, `invalid expression syntax`.
import { RE2JS } from 're2js';

export class ExpressionError extends Error {}

type Token =
  | { kind: 'variable'; name: string }
  | { kind: 'string'; value: string }
  | { kind: 'regexp'; source: string; flags: string }
  | { kind: 'null' }
  | { kind: 'op'; op: '==' | '!=' | '=~' | '!~' | '&&' | '||' }
  | { kind: 'paren'; open: boolean };

const MAX_TOKENS = 100;

function lex(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const space = /^\s+/.exec(rest);
    if (space) {
      i += space[0].length;
      continue;
    }
    let match: RegExpExecArray | null;
    if ((match = /^\$([A-Za-z_][A-Za-z0-9_]*)/.exec(rest)) || (match = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(rest))) {
      tokens.push({ kind: 'variable', name: match[1] });
    } else if ((match = /^"([^"]*)"/.exec(rest)) || (match = /^'([^']*)'/.exec(rest))) {
      tokens.push({ kind: 'string', value: match[1] });
    } else if ((match = /^\/((?:\\.|[^/\\])*)\/([ismU]*)/.exec(rest))) {
      tokens.push({ kind: 'regexp', source: match[1], flags: match[2] });
    } else if ((match = /^null\b/.exec(rest))) {
      tokens.push({ kind: 'null' });
    } else if ((match = /^(==|!=|=~|!~|&&|\|\|)/.exec(rest))) {
      tokens.push({ kind: 'op', op: match[1] as '==' });
    } else if ((match = /^[()]/.exec(rest))) {
      tokens.push({ kind: 'paren', open: match[0] === '(' });
    } else {
      throw new ExpressionError('Unknown lexeme found!');
    }
    i += match[0].length;
    if (tokens.length > MAX_TOKENS) throw new ExpressionError('Too many tokens!');
  }
  return tokens;
}

type Node =
  | { kind: 'value'; token: Token }
  | { kind: 'binary'; op: string; left: Node; right: Node };

function parse(tokens: Token[]): Node {
  let position = 0;
  const peek = () => tokens[position];
  function primary(): Node {
    const token = tokens[position++];
    if (!token) throw new ExpressionError('unexpected end');
    if (token.kind === 'paren') {
      if (!token.open) throw new ExpressionError('unexpected )');
      const inner = or();
      const close = tokens[position++];
      if (!close || close.kind !== 'paren' || close.open) throw new ExpressionError('missing )');
      return inner;
    }
    if (token.kind === 'op') throw new ExpressionError('unexpected operator');
    return { kind: 'value', token };
  }
  function comparison(): Node {
    let left = primary();
    for (let next = peek(); next?.kind === 'op' && ['==', '!=', '=~', '!~'].includes(next.op); next = peek()) {
      position++;
      left = { kind: 'binary', op: next.op, left, right: primary() };
    }
    return left;
  }
  function and(): Node {
    let left = comparison();
    for (let next = peek(); next?.kind === 'op' && next.op === '&&'; next = peek()) {
      position++;
      left = { kind: 'binary', op: '&&', left, right: comparison() };
    }
    return left;
  }
  function or(): Node {
    let left = and();
    for (let next = peek(); next?.kind === 'op' && next.op === '||'; next = peek()) {
      position++;
      left = { kind: 'binary', op: '||', left, right: and() };
    }
    return left;
  }
  const tree = or();
  if (position !== tokens.length) throw new ExpressionError('trailing tokens');
  return tree;
}

function compileRegexp(source: string, flags: string): RE2JS {
  let re2Flags = 0;
  if (flags.includes('i')) re2Flags |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) re2Flags |= RE2JS.MULTILINE;
  if (flags.includes('s')) re2Flags |= RE2JS.DOTALL;
  try {
    return RE2JS.compile(source.replace(/\\\//g, '/'), re2Flags);
  } catch {
    throw new ExpressionError('Invalid regular expression!');
  }
}

/** Checks an expression's syntax (lint): throws ExpressionError when GitLab would refuse it. */
export function validateExpression(text: string): void {
  const tree = parse(lex(text));
  const walk = (node: Node): void => {
    if (node.kind === 'binary') {
      walk(node.left);
      walk(node.right);
    } else if (node.token.kind === 'regexp') compileRegexp(node.token.source, node.token.flags);
  };
  walk(tree);
}

type Value = string | null | boolean | RE2JS;

/** Evaluates an expression against the variables (undefined variables are null). */
export function evaluateExpression(text: string, variables: Record<string, string>): boolean {
  const tree = parse(lex(text));
  const value = (node: Node): Value => {
    if (node.kind === 'value') {
      const token = node.token;
      switch (token.kind) {
        case 'variable':
          return Object.hasOwn(variables, token.name) ? variables[token.name] : null;
        case 'string':
          return token.value;
        case 'regexp':
          return compileRegexp(token.source, token.flags);
        default:
          return null;
      }
    }
    if (node.op === '&&') return truthy(value(node.left)) && truthy(value(node.right));
    if (node.op === '||') return truthy(value(node.left)) || truthy(value(node.right));
    const left = value(node.left);
    let right = value(node.right);
    if (node.op === '==' || node.op === '!=') {
      const equal = (left instanceof RE2JS ? left.pattern() : left) === (right instanceof RE2JS ? right.pattern() : right);
      return node.op === '==' ? equal : !equal;
    }
    // Matching: the right side is a pattern (a variable holding `/re/` is compiled as one).
    if (typeof right === 'string') {
      const literal = /^\/(.*)\/([ismU]*)$/s.exec(right);
      right = literal ? compileRegexp(literal[1], literal[2]) : null;
    }
    if (!(right instanceof RE2JS)) throw new ExpressionError('invalid expression syntax');
    const matched = typeof left === 'string' && right.matcher(left).find();
    return node.op === '=~' ? matched : !matched;
  };
  return truthy(value(tree));
}

function truthy(value: Value): boolean {
  if (value === null || value === false) return false;
  if (value === true) return true;
  if (typeof value === 'string') return value.length > 0;
  return true;
}
