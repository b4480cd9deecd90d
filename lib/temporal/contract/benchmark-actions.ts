import type { TemporalScenario } from '../../../config';

/*
 * What one benchmark workflow bills as Temporal Cloud actions: its start, each activity it starts
 * and each timer, as the benchmark program's workflows issue them
 * (benchmark/internal/workflows/workflows.go; test/lib/temporal/contract/benchmark-actions.test.ts
 * holds the table to that source). Workflow tasks are not actions.
 */

/** The generator's BENCHMARK_ACTIVITY_COUNT default (benchmark/internal/config/config.go): the stack renders none. */
export const MULTI_ACTIVITY_COUNT = 3;

type WorkflowType = TemporalScenario['preset']['benchmark']['workflowType'];

/** Actions each workflow type bills: the start, then its activities and timers. */
export const ACTIONS_PER_WORKFLOW: Readonly<Record<WorkflowType, { readonly activities: number; readonly timers: number; readonly actions: number }>> = {
  simple: { activities: 1, timers: 0, actions: 2 },
  'multi-activity': { activities: MULTI_ACTIVITY_COUNT, timers: 0, actions: 1 + MULTI_ACTIVITY_COUNT },
  timer: { activities: 1, timers: 1, actions: 3 },
};
