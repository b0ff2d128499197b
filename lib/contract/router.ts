// Method + concrete pathname → operation + path parameters. Templates are compiled once; when several match
// (`/items/new` and `/items/{id}`), the most specific one (fewest templated segments, then most literal text) wins,
// for every method: OpenAPI matches concrete paths before templated ones, so `GET /items/new` is not `/items/{id}`'s
// GET when only `POST /items/new` is documented (a 405 whose Allow lists POST, RFC 9110 §15.5.6).
import type { HttpMethod } from "./model.js";
import type { OperationInfo } from "./operations.js";

export interface RouteMatch {
  operation: OperationInfo;
  /** Path parameters by name, percent-decoded (left as sent when the encoding is broken). */
  pathParams: Record<string, string>;
}

interface CompiledRoute {
  operation: OperationInfo;
  pattern: RegExp;
  names: string[];
  templated: number;
  literal: number;
}

const TEMPLATE_PART = /(\{[^}]+\})/;

function compile(operation: OperationInfo): CompiledRoute {
  const names: string[] = [];
  let literal = 0;
  const source = operation.path
    .split(TEMPLATE_PART)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (name === undefined) {
        literal += part.length;
        return part.replace(/[.*+?^$()|[\]\\{}]/g, "\\$&");
      }
      names.push(name);
      return "([^/]+)";
    })
    .join("");
  return { operation, pattern: new RegExp(`^${source}$`), names, templated: names.length, literal };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export class Router {
  private readonly routes: CompiledRoute[];

  constructor(operations: readonly OperationInfo[]) {
    this.routes = operations
      .filter((operation) => !operation.webhook)
      .map(compile)
      .sort((a, b) => a.templated - b.templated || b.literal - a.literal);
  }

  /** The operation for `method` at `pathname`, or undefined (see `allowedMethods` to tell 404 from 405). */
  route(method: string, pathname: string): RouteMatch | undefined {
    const wanted = method.toLowerCase();
    const path = this.pathAt(pathname);
    for (const route of this.routes) {
      if (route.operation.method !== wanted || route.operation.path !== path) continue;
      const found = route.pattern.exec(pathname);
      if (!found) continue;
      const pathParams: Record<string, string> = {};
      route.names.forEach((name, index) => (pathParams[name] = decode(found[index + 1] ?? "")));
      return { operation: route.operation, pathParams };
    }
    return undefined;
  }

  /** The methods the contract has at `pathname` (empty when the path is not the contract's). */
  allowedMethods(pathname: string): HttpMethod[] {
    const path = this.pathAt(pathname);
    const methods = this.routes.filter((route) => route.operation.path === path).map((route) => route.operation.method);
    return [...new Set(methods)];
  }

  /** The contract's path that serves `pathname`: the most specific one that matches. */
  private pathAt(pathname: string): string | undefined {
    return this.routes.find((route) => route.pattern.test(pathname))?.operation.path;
  }
}
