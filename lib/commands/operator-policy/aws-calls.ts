import { relative } from 'node:path';
import ts from 'typescript';
import { IAM_PREFIX } from '../aws/iam-prefixes';

/*
 * The AWS calls a command can make, read from the code itself: every function its entry point
 * can reach (by the type checker's resolution of each name it uses, an interface's method
 * standing for every object that implements it), and in them every SDK v3 command it
 * constructs (`new ListTasksCommand(...)`), every paginator it calls (`paginateGetMetricData`),
 * and every action a function's `@iamActions` tag declares for a call the SDK does not name (a
 * request signed by hand, a command the user is told to run). A request signed by hand without
 * that tag is refused: its action would be missing from the policy.
 */

/** An action the code needs, where it needs it (file:line), and the resource if the code's tag names one. */
export interface AwsCall {
  readonly action: string;
  readonly resource?: string;
  readonly where: string;
}

/**
 * The program of the entry points and every project module they load, resolved as tsc resolves
 * them. Packages are read as empty modules: what a command calls is known by the package a name
 * is imported from, and reading aws-cdk-lib's declarations would take the checker a minute.
 */
export function commandsProgram(entries: readonly string[]): ts.Program {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, onError, create) =>
    fileName.includes('/node_modules/') ? ts.createSourceFile(fileName, 'export {};', language) : read(fileName, language, onError, create);
  return ts.createProgram([...entries], options, host);
}

type FunctionLike = ts.FunctionLikeDeclaration | ts.SourceFile | ts.Expression | ts.ClassElement;

const isFunctionLike = (n: ts.Node): n is ts.FunctionLikeDeclaration =>
  ts.isFunctionDeclaration(n) ||
  ts.isMethodDeclaration(n) ||
  ts.isArrowFunction(n) ||
  ts.isFunctionExpression(n) ||
  ts.isConstructorDeclaration(n) ||
  ts.isGetAccessorDeclaration(n) ||
  ts.isSetAccessorDeclaration(n);

const SDK_PACKAGE = /^@aws-sdk\/(client-[a-z0-9-]+)$/;
const SIGNER_PACKAGE = '@smithy/signature-v4';
const TAG = 'iamActions';

export class AwsCallScanner {
  private readonly checker: ts.TypeChecker;
  /** `Interface.member` -> the object-literal members and class methods that implement it. */
  private readonly implementations = new Map<string, ts.Node[]>();
  /** Each interface of the project: the names of its members. */
  private readonly interfaceMembers = new Map<string, Set<string>>();
  /** Each function walked so far: its own calls and its targets (step). */
  private readonly steps = new Map<ts.Node, { found: readonly AwsCall[]; next: readonly FunctionLike[] }>();

  constructor(
    private readonly program: ts.Program,
    private readonly root: string,
  ) {
    this.checker = program.getTypeChecker();
    for (const sf of program.getSourceFiles()) if (!sf.isDeclarationFile && !sf.fileName.includes('/node_modules/')) this.indexImplementations(sf);
  }

  /** Every AWS call reachable from `entry` (a file of the program), or from its function `name`, sorted by action. */
  callsFrom(entry: string, name?: string): AwsCall[] {
    const sf = this.program.getSourceFile(entry);
    if (!sf) throw new Error(`${entry} is not in the program`);
    const start = name ? sf.statements.find((st) => ts.isFunctionDeclaration(st) && st.name?.text === name) : sf;
    if (!start) throw new Error(`${entry} declares no function ${name}`);
    const calls = new Map<string, AwsCall>();
    const seen = new Set<ts.Node>();
    const queue: FunctionLike[] = [start as FunctionLike];
    while (queue.length) {
      const fn = queue.pop()!;
      if (seen.has(fn)) continue;
      seen.add(fn);
      const { found, next } = this.step(fn);
      for (const call of found) calls.set(`${call.action} ${call.resource ?? ''} ${call.where}`, call);
      for (const target of next) if (!seen.has(target)) queue.push(target);
    }
    return [...calls.values()].sort((a, b) => a.action.localeCompare(b.action) || a.where.localeCompare(b.where));
  }

  /**
   * A function's own AWS calls and what it may run next, worked out once: the commands share
   * most of their functions, and each entry point walks them again.
   */
  private step(fn: FunctionLike): { found: readonly AwsCall[]; next: readonly FunctionLike[] } {
    const known = this.steps.get(fn);
    if (known) return known;
    const found = this.taggedCalls(fn);
    const next: FunctionLike[] = [];
    const visit = (n: ts.Node): void => {
      // A function declared here runs only if something calls it; a class only through its members.
      if (n !== fn && (ts.isFunctionDeclaration(n) || ts.isClassDeclaration(n))) return;
      if (ts.isNewExpression(n) || ts.isCallExpression(n)) this.sdkCall(n, (c) => found.push(c));
      if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) next.push(...this.targets(n));
      ts.forEachChild(n, visit);
    };
    // A member given a function by name (`environment: temporalEnvironment`) runs that function.
    if (ts.isIdentifier(fn)) next.push(...this.targets(fn));
    else ts.forEachChild(fn, visit);
    const step = { found, next };
    this.steps.set(fn, step);
    return step;
  }

  /** A constructed SDK command or a called paginator: its action; a hand-signed request: refused unless tagged. */
  private sdkCall(n: ts.NewExpression | ts.CallExpression, add: (c: AwsCall) => void): void {
    const callee = ts.isIdentifier(n.expression) ? n.expression : undefined;
    const imported = callee && this.importOf(callee);
    if (!imported) return;
    const sdk = SDK_PACKAGE.exec(imported.from);
    const { name } = imported;
    if (sdk) {
      const prefix = IAM_PREFIX[sdk[1]];
      if (!prefix) throw new Error(`${this.where(n)}: ${sdk[1]} has no IAM prefix in IAM_PREFIX (lib/commands/aws/iam-prefixes.ts)`);
      if (ts.isCallExpression(n) && /^waitUntil/.test(name))
        throw new Error(`${this.where(n)}: ${name} is a waiter; say which operation it polls with an @${TAG} tag, and teach the scanner`);
      const op = ts.isNewExpression(n) ? /^(\w+)Command$/.exec(name)?.[1] : /^paginate(\w+)$/.exec(name)?.[1];
      if (op) add({ action: `${prefix}:${op}`, where: this.where(n) });
    } else if (imported.from === SIGNER_PACKAGE && ts.isNewExpression(n) && !this.enclosingTags(n).length) {
      throw new Error(`${this.where(n)}: a request signed by hand, with no @${TAG} tag on its function to say which action it calls`);
    }
  }

  /** The package and exported name an identifier was imported as, if it names an import. */
  private importOf(id: ts.Identifier): { from: string; name: string } | undefined {
    const d = this.checker.getSymbolAtLocation(id)?.declarations?.[0];
    if (!d || !ts.isImportSpecifier(d)) return undefined;
    const from = d.parent.parent.parent.moduleSpecifier;
    return ts.isStringLiteral(from) ? { from: from.text, name: (d.propertyName ?? d.name).text } : undefined;
  }

  /** The `@iamActions <action> [<resource>]` tags of a function (or of the statement that declares it). */
  private taggedCalls(fn: FunctionLike): AwsCall[] {
    if (ts.isSourceFile(fn)) return [];
    return this.tagsOf(fn).map((text) => {
      const [action, resource] = text.trim().split(/\s+/);
      if (!/^[a-z0-9-]+:[A-Za-z0-9]+$/.test(action ?? '')) throw new Error(`${this.where(fn)}: @${TAG} "${text}" is not "<service>:<Action> [<resource ARN>]"`);
      return { action, ...(resource ? { resource } : {}), where: this.where(fn) };
    });
  }

  private tagsOf(node: ts.Node): string[] {
    const owners = [node, node.parent, node.parent?.parent, node.parent?.parent?.parent].filter(Boolean);
    return owners.flatMap((o) =>
      ts
        .getJSDocTags(o)
        .filter((t) => t.tagName.text === TAG)
        .map((t) => (typeof t.comment === 'string' ? t.comment : (ts.getTextOfJSDocComment(t.comment) ?? ''))),
    );
  }

  private enclosingTags(n: ts.Node): string[] {
    for (let p: ts.Node | undefined = n.parent; p; p = p.parent)
      if (isFunctionLike(p) || ts.isClassDeclaration(p)) if (this.tagsOf(p).length) return this.tagsOf(p);
    return [];
  }

  /** What running code that names `id` may run next: the functions, methods and initializers it resolves to. */
  private targets(id: ts.Identifier | ts.PrivateIdentifier): FunctionLike[] {
    return this.resolve(id).flatMap((d) => this.declaredTargets(d));
  }

  private declaredTargets(d: ts.Declaration): FunctionLike[] {
    if (d.getSourceFile().fileName.includes('/node_modules/')) return [];
    if (isFunctionLike(d)) return [d];
    if ((ts.isVariableDeclaration(d) || ts.isPropertyAssignment(d) || ts.isPropertyDeclaration(d)) && d.initializer)
      // An object's methods run when they are named (obj.method), not when the object is.
      return ts.isObjectLiteralExpression(d.initializer) ? [] : [d.initializer];
    if (ts.isBindingElement(d) && ts.isObjectBindingPattern(d.parent)) {
      // const { f }: typeof import('./m') = require('./m'): f is m's export.
      const key = d.propertyName ?? d.name;
      const property = ts.isIdentifier(key) ? this.checker.getTypeAtLocation(d.parent).getProperty(key.text) : undefined;
      return property ? this.symbolDeclarations(property).flatMap((v) => this.declaredTargets(v)) : [];
    }
    if (ts.isShorthandPropertyAssignment(d)) {
      const value = this.checker.getShorthandAssignmentValueSymbol(d);
      return value ? this.symbolDeclarations(value).flatMap((v) => this.declaredTargets(v)) : [];
    }
    if (ts.isClassDeclaration(d)) return d.members.filter((m) => ts.isConstructorDeclaration(m) || (ts.isPropertyDeclaration(m) && m.initializer));
    if ((ts.isMethodSignature(d) || ts.isPropertySignature(d)) && ts.isIdentifier(d.name) && ts.isInterfaceDeclaration(d.parent)) {
      const member = d.name.text;
      // Its member in every interface that has all of its members: objects typed as it, and as any
      // wider interface (a family's part of one command, and the whole of its commands' parts).
      const members = d.parent.members.flatMap((m) => (m.name && ts.isIdentifier(m.name) ? [m.name.text] : []));
      return [...this.interfaceMembers]
        .filter(([, has]) => members.every((m) => has.has(m)))
        .flatMap(([name]) => this.implementations.get(`${name}.${member}`) ?? []) as FunctionLike[];
    }
    return [];
  }

  private symbolDeclarations(symbol: ts.Symbol): ts.Declaration[] {
    const s = symbol.flags & ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(symbol) : symbol;
    return s.declarations ?? [];
  }

  private resolve(id: ts.Node): ts.Declaration[] {
    const symbol = this.checker.getSymbolAtLocation(id);
    return symbol ? this.symbolDeclarations(symbol) : [];
  }

  /** Each object literal typed as an interface (a family, a client table): its members, as that interface's. */
  private indexImplementations(sf: ts.SourceFile): void {
    const visit = (n: ts.Node): void => {
      // Its own members and those it extends (the Family contract is its parts, each beside its command).
      if (ts.isInterfaceDeclaration(n))
        this.interfaceMembers.set(
          n.name.text,
          new Set(
            this.checker
              .getTypeAtLocation(n.name)
              .getProperties()
              .map((p) => p.getName()),
          ),
        );
      if (ts.isObjectLiteralExpression(n)) {
        const type = this.checker.getContextualType(n);
        const name = type?.getSymbol()?.getName() ?? type?.aliasSymbol?.getName();
        if (name && name !== '__object' && name !== '__type')
          for (const p of n.properties) {
            if (!p.name || !ts.isIdentifier(p.name)) continue;
            const impl = ts.isMethodDeclaration(p) ? p : ts.isPropertyAssignment(p) ? p.initializer : undefined;
            if (impl) this.implementations.set(`${name}.${p.name.text}`, [...(this.implementations.get(`${name}.${p.name.text}`) ?? []), impl]);
          }
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }

  private where(n: ts.Node): string {
    const sf = n.getSourceFile();
    return `${relative(this.root, sf.fileName)}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
  }
}
