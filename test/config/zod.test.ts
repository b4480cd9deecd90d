import { z } from '../../config/zod';
import { loadCatalog } from '../../config';

test('zod, as the project imports it, parses without compiling its schemas, and the catalog still parses', () => {
  expect(z.config().jitless).toBe(true);
  expect(loadCatalog().folio.phases.length).toBeGreaterThan(0);
});
