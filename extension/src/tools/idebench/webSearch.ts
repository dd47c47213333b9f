// web_search: there is no internet in the environment; say so instead of pretending.
import { z } from 'zod';
import { defineTool, text } from '../toolRegistry';

export function webSearchTool() {
  return defineTool({
    name: 'web_search',
    group: 'idebench',
    effects: 'read',
    openWorld: true,
    description: 'Search the web. Not available in this environment: it has no internet access, and the call says so.',
    params: z.object({ search_term: z.string().min(1) }).strict(),
    timeoutMs: 5000,
    run: async ({ search_term }) => ({
      isError: true,
      content: [text(`web_search is not available offline: this environment has no internet access, so no results for ${JSON.stringify(search_term)}. ` +
        'Use the workspace (codebase_search, grep_search, read_file) and installed documentation instead.')],
    }),
  });
}
