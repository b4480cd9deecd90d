import type { FolioScenario } from '../../../../config';
import type { FolioPhaseInput } from '../../../../config/folio-schema';
import type { FamilyReport } from '../../../commands/report/family-report';
import { writerInstanceIdentifier } from '../../../platform/contract/physical-names';
import { type FolioReport, summarizeFolio } from './folio-summary';
import { renderFolio } from './render-folio';
import { type ResumeReading, readResumes } from './resumes';
import { readWaitEvents, type WaitReading } from './wait-events';

/** `report` for a FOLIO phase: CloudWatch's figures, the offload cluster's resumes and where its writer waited. */
export const FOLIO_REPORT_PART: FamilyReport<FolioScenario, FolioReport> = {
  reportOptions: [],
  checkReportOptions() {},
  deployedForReport: async () => ({}),
  async report({ scenario, options, aws, target, window, io, now }, catalog, points) {
    const offloadWriter = writerInstanceIdentifier(scenario.environment.names.offloadCluster);
    // A Serverless v2 offload cluster that pauses: when it resumed, and how long that took.
    let resumes: ResumeReading | undefined;
    if (scenario.phase.offload.serverless?.min === 0) {
      resumes = await readResumes(aws.rds(target), offloadWriter, window);
      if (resumes.unread) io.note(`note: RDS events: not read: ${resumes.unread}`);
    }
    // Where the offload writer's load waited: Performance Insights, which an emulator does not serve.
    const waits: WaitReading =
      options.endpointUrl !== undefined
        ? { offload: null, unread: '--endpoint-url points the AWS calls at an emulator, which serves no Performance Insights API' }
        : await readWaitEvents(aws.rds(target), aws.pi(target), offloadWriter, window, now);
    if (waits.unread) io.note(`note: Performance Insights: not read: ${waits.unread}`);
    return { report: summarizeFolio(scenario, catalog, points, window, resumes, waits), charts: () => [] };
  },
  renderReport: renderFolio,
  noDataHint: () => '',
  compareReports: () => [],
  addProposed(catalog, next) {
    (catalog.folio.phases as FolioPhaseInput[]).push(next as FolioPhaseInput);
  },
};
