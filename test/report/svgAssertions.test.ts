import { describe, expect, it } from "vitest";
import { assertWellFormedXml } from "./svgAssertions.ts";

// The checker guards every chart test, so it must itself reject what it claims to reject.
describe("assertWellFormedXml", () => {
  it("accepts nested elements, self-closing tags, entities and comments", () => {
    expect(() => assertWellFormedXml('<svg a="1"><g><rect b=\'2\'/><text>a &amp; b &#62; &#x3c;</text></g><!-- c --></svg>')).not.toThrow();
  });
  it.each([
    ["unclosed element", "<svg><g></svg>"],
    ["mismatched close", "<svg><g></text></svg>"],
    ["bare ampersand", "<svg><text>a & b</text></svg>"],
    ["stray <", "<svg><text>a < b</text></svg>"],
    ["unquoted attribute", "<svg width=10></svg>"],
    ["duplicate attribute", '<svg a="1" a="2"></svg>'],
    ["two roots", "<svg></svg><svg></svg>"],
    ["text outside root", "x<svg></svg>"],
  ])("rejects %s", (_, xml) => {
    expect(() => assertWellFormedXml(xml)).toThrow();
  });
});
