/**
 * Moved to src/demo/textFormats.ts with the rest of the demo; re-exported here only because
 * src/cli/fleet.ts (`fleet status`) still imports it from this path. Delete this file once that
 * import reads "../demo/textFormats.ts".
 *
 * @example
 * withInterval(412.3, 350, 480); // "412 [350–480]"
 */
export { withInterval } from "../demo/textFormats.ts";
