import { ConfigError } from '../../../config';
import { familyNames } from '../../families';
import type { ReportBase } from '../report/summarize';
import { readJson } from './files';

/*
 * A report.json that `report` wrote, read back: by `report --compare` (two of them) and by
 * `cost --report` (its load figures).
 */

/** A report JSON read back; the fields its readers need are checked. */
export function readReport(path: string, option = '--compare'): ReportBase {
  const raw: any = readJson(option, path, 'a report.json written by the report command');
  if (raw?.schemaVersion !== 1 || !familyNames().includes(raw.family) || typeof raw.metrics !== 'object')
    throw new ConfigError(`${option} "${path}" is not a report (valid: a report.json written by the report command, schemaVersion 1)`);
  return raw as ReportBase;
}
