// VS Code's own JSON dialect (comments, trailing commas): how settings.json, launch.json and the
// workspace file are read by the file graders and by the IDE-state capture alike.
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';

/** Parses JSON with comments and trailing commas, as VS Code reads settings.json and launch.json. */
export function parseJsonWithComments(text: string): { value: unknown; error?: string } {
  const errors: ParseError[] = [];
  const value = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  const e = errors[0];
  if (!e) return { value };
  const line = text.slice(0, e.offset).split('\n').length;
  return { value, error: `${printParseErrorCode(e.error)} at line ${line}` };
}
