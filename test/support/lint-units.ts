import { createHash } from 'node:crypto';

/*
 * Judging a resource once where many templates hold it. The 66 linted templates hold about 5,100
 * resources, of which about 1,100 differ: a FOLIO phase differs from the next in a few resources,
 * a Temporal preset in a few more. cfn-lint's schema pass and checkov judge a resource by itself,
 * the resources it names (Ref, Fn::GetAtt, Fn::Sub, DependsOn) and the template's parameters,
 * conditions, mappings and rules; so a resource's key is a hash of exactly those, and a resource
 * whose key was judged in one template is not judged again in another. What lies outside
 * Resources (outputs, parameters), and Resources as a whole, is judged once per sections key.
 * What is to be judged is written into units (unitsFor). In a unit, cfn-lint's schema pass
 * validates only the resources the unit judges, the others there for what those name
 * (cfn-lint-pass.py's --judges); checkov and the Control Tower rules judge every resource in it,
 * and only the judged ones' results are read.
 * Whole-template rules (unused parameters, size limits, circular dependencies) never see a unit:
 * they run on every template (test/support/cfn-lint-pass.py).
 */

type Template = Record<string, any>;
type Resource = Record<string, any>;

const hash = (x: unknown): string => createHash('sha256').update(JSON.stringify(x)).digest('hex').slice(0, 32);

/** The names an intrinsic function or attribute in `x` refers to: Ref, Fn::GetAtt, Fn::Sub's `${Name}` and `${Name.Attr}`, DependsOn. */
export function namesIn(x: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(x)) for (const y of x) namesIn(y, out);
  else if (x && typeof x === 'object')
    for (const [k, v] of Object.entries(x)) {
      if (k === 'Ref' && typeof v === 'string') out.add(v);
      else if (k === 'Fn::GetAtt') out.add(Array.isArray(v) ? String(v[0]) : String(v).split('.')[0]);
      else if (k === 'DependsOn') for (const d of [v].flat()) out.add(String(d));
      else {
        if (k === 'Fn::Sub') for (const m of String(Array.isArray(v) ? v[0] : v).matchAll(/\$\{([^!}][^}.]*)/g)) out.add(m[1].trim());
        namesIn(v, out);
      }
    }
  return out;
}

/** What a resource's judgement reads besides the resources: everything but Resources, Outputs and Description. */
function context(template: Template): Template {
  const { Resources: _r, Outputs: _o, Description: _d, ...rest } = template;
  return rest;
}

/** The resources each resource of `template` names, sorted. */
function named(template: Template): Map<string, string[]> {
  const resources: Record<string, Resource> = template.Resources ?? {};
  return new Map(Object.entries(resources).map(([id, r]) => [id, [...namesIn(r)].filter((n) => n !== id && n in resources).sort()]));
}

/**
 * Each resource's key: its id and body, the resources it names (whole), and the context it is
 * judged in: every section of `context` but Parameters, of which only those it, the resources
 * it names or a condition name (an unused parameter is a whole-template rule's finding).
 */
export function resourceKeys(template: Template): Map<string, string> {
  const resources: Record<string, Resource> = template.Resources ?? {};
  const { Parameters: parameters = {}, ...rest } = context(template);
  const byConditions = namesIn(template.Conditions ?? {});
  return new Map(
    [...named(template)].map(([id, names]) => {
      const read = new Set([...byConditions, ...[id, ...names].flatMap((n) => [...namesIn(resources[n])])]);
      const params = Object.fromEntries(Object.entries(parameters).filter(([p]) => read.has(p)));
      return [id, hash([id, resources[id], names.map((n) => [n, resources[n]]), rest, params])];
    }),
  );
}

/** A resource that names no other and needs no property: what a unit holds in place of a resource it does not judge. */
export const PLACEHOLDER = { Type: 'AWS::CloudFormation::WaitConditionHandle' };

/** The resources the outputs name: a unit holds them bare, of their own type (an output's Fn::GetAtt is checked against the type). */
const outputNames = (template: Template): Set<string> => namesIn(template.Outputs ?? {});

/** The key of what lies outside Resources, and of Resources as a whole (at most 500): every other section, every id, and the type of each the outputs name. */
export function sectionsKey(template: Template): string {
  const { Resources: resources = {}, ...sections } = template;
  const named = outputNames(template);
  return hash([sections, Object.entries(resources as Record<string, Resource>).map(([id, r]) => [id, named.has(id) ? r.Type : null])]);
}

export interface Unit {
  /** The template the unit is cut from. */
  readonly from: string;
  readonly template: Template;
  /** The resources judged in this unit, by id, with their keys. */
  readonly judges: ReadonlyMap<string, string>;
  /** The sections key judged in this unit, if any. */
  readonly sections?: string;
}

/**
 * The units that judge every resource key and sections key of `templates` that `judged` does
 * not hold, each once. Each template in order gives one unit if it holds a key no earlier unit
 * judges: every section of the template, and every resource id, holding whole the resources it
 * judges and those they name, bare those the outputs name, and a placeholder for every other
 * (so that a message listing the template's ids lists them all).
 */
export function unitsFor(templates: ReadonlyArray<{ file: string; template: Template }>, judged: (key: string) => boolean): Unit[] {
  const seen = new Set<string>();
  const fresh = (key: string) => !judged(key) && !seen.has(key);
  const units: Unit[] = [];
  for (const { file, template } of templates) {
    const resources: Record<string, Resource> = template.Resources ?? {};
    const names = named(template);
    const judges = new Map([...resourceKeys(template)].filter(([, key]) => fresh(key)));
    const sections = sectionsKey(template);
    const judgesSections = fresh(sections);
    if (!judges.size && !judgesSections) continue;
    for (const key of [...judges.values(), sections]) seen.add(key);
    const whole = new Set([...judges.keys()].flatMap((id) => [id, ...names.get(id)!]));
    const bare = outputNames(template);
    const held = Object.fromEntries(Object.entries(resources).map(([id, r]) => [id, whole.has(id) ? r : bare.has(id) ? { Type: r.Type } : PLACEHOLDER]));
    units.push({ from: file, template: { ...template, Resources: held }, judges, ...(judgesSections ? { sections } : {}) });
  }
  return units;
}
