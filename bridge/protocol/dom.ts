import { z } from 'zod';
import { Box, Empty, method } from './common';

const ImageFormat = z.enum(['png', 'jpeg']);

/** Element states that matter for acting on it; absent when not applicable. */
const ElementState = {
  focused: z.literal(true).optional(),
  selected: z.boolean().optional(),
  checked: z.union([z.boolean(), z.literal('mixed')]).optional(),
  expanded: z.boolean().optional(),
  disabled: z.literal(true).optional(),
};

export const Mark = z.object({
  /** Stable while the element stays on screen; see bridge/dom/markIds.ts. */
  id: z.int(),
  role: z.string(),
  text: z.string(),
  /** The visible part of the element, in screen pixels. */
  box: Box,
  /** Where a click lands on the element (screen pixels): the centre of its visible part, or another visible point if that is covered. */
  point: z.object({ x: z.int(), y: z.int() }),
  /** The workbench part it belongs to: activitybar, sidebar, editor, panel, statusbar, titlebar, quickinput, menu, notifications, webview, … */
  part: z.string(),
  ...ElementState,
});
export type Mark = z.infer<typeof Mark>;

const MarksResult = z.object({
  marks: z.array(Mark),
  /** One line a mark: `[id] [role] [text]`. */
  text: z.string(),
  screen: z.object({ width: z.int(), height: z.int() }),
  durationMs: z.number(),
});

export interface DomNode {
  tag: string;
  role?: string;
  name?: string;
  text?: string;
  id?: string;
  class?: string;
  box?: Box;
  hidden?: true;
  focused?: true;
  value?: string;
  selected?: boolean;
  checked?: boolean | 'mixed';
  expanded?: boolean;
  disabled?: true;
  attrs?: Record<string, string>;
  /** Descendants left out because of maxDepth or maxNodes. */
  omitted?: number;
  children?: DomNode[];
}
export const DomNode: z.ZodType<DomNode> = z.lazy(() => z.object({
  tag: z.string(),
  role: z.string().optional(),
  /** Accessible name from aria-label/labelledby, title, alt or placeholder. */
  name: z.string().optional(),
  /** The element's own text (its text nodes, or text-only children folded in). */
  text: z.string().optional(),
  id: z.string().optional(),
  class: z.string().optional(),
  /** Screen pixels; absent when the element has no layout box. */
  box: Box.optional(),
  hidden: z.literal(true).optional(),
  value: z.string().optional(),
  attrs: z.record(z.string(), z.string()).optional(),
  omitted: z.int().optional(),
  children: z.array(DomNode).optional(),
  ...ElementState,
}));

export const domMethods = {
  'dom.tree': method(
    'The workbench DOM as a compact tree: wrappers without role, name, text or a VS Code part class are folded away. ' +
      'Cut at maxDepth levels and maxNodes nodes (breadth first); `truncated` says whether anything was left out.',
    z.object({
      maxDepth: z.int().min(1).max(200).default(40),
      maxNodes: z.int().min(1).max(20_000).default(2000),
      /** CSS selector of the subtree root; default the whole workbench. */
      selector: z.string().min(1).max(500).optional(),
      /** Also list elements that are not displayed (display:none, zero size, off screen). */
      includeHidden: z.boolean().default(false),
    }).strict(),
    z.object({
      root: DomNode.nullable(),
      nodeCount: z.int(),
      truncated: z.boolean(),
      /** Why and how much was cut, when truncated. */
      truncation: z.object({ depth: z.boolean(), nodes: z.boolean(), omittedNodes: z.int() }).optional(),
      durationMs: z.number(),
    }),
  ),
  'dom.marks': method(
    'Set-of-Marks: every interactable element on screen (activity bar, tabs, tree and list items, buttons, inputs, ' +
      'quick pick, menus, editor, terminal, notifications, webviews) with an id, role, text and screen box, and a ' +
      '`[id] [role] [text]` listing. Hidden, off-screen, zero-size and covered elements are left out.',
    z.object({
      /** Keep elements that another element covers (e.g. under an open menu's click shield). */
      includeCovered: z.boolean().default(false),
    }).strict(),
    MarksResult,
  ),
  'dom.marksImage': method(
    'A screenshot with the Set-of-Marks boxes and ids drawn on it, with the marks it shows.',
    z.object({
      format: ImageFormat.default('png'),
      quality: z.int().min(1).max(100).default(80),
      includeCovered: z.boolean().default(false),
    }).strict(),
    MarksResult.extend({
      image: z.object({ format: ImageFormat, width: z.int(), height: z.int(), data: z.string() }),
    }),
  ),
  'dom.zoom': method(
    'The browser\'s zoom of the workbench page (1 = 100%; ctrl+= and ctrl+- change it, and the browser keeps it ' +
      'across reloads). With reset: true it is brought back to 100% with the browser\'s own zoom keys, a step at a ' +
      'time, each waited for; `steps` says how many it took.',
    z.object({ reset: z.boolean().default(false) }).strict(),
    z.object({ zoom: z.number(), steps: z.int() }),
  ),
  'dom.focused': method(
    'The element that has keyboard focus (inside shadow roots and frames), or null when nothing does.',
    Empty,
    z.object({
      focused: z.object({
        tag: z.string(),
        role: z.string(),
        text: z.string(),
        box: Box.nullable(),
        part: z.string(),
        /** Where it is: the ancestors that have an id, a role or a part class, as a descendant selector; `>>` enters a frame or shadow root. */
        path: z.string(),
        value: z.string().optional(),
      }).nullable(),
      durationMs: z.number(),
    }),
  ),
};
