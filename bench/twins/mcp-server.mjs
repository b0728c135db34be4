// `lms mcp` written by hand: a minimal server on the same MCP SDK over stdio, with a tools
// capability and no tools, serving until stdin closes. The SDK comes from node_modules, imported
// as its README shows; or, with BENCH_MCP_SDK naming dist/mcp-sdk.cjs, the SDK as lms ships it
// (one file, without ajv), so the ratio to it is what lms adds, not how the SDK is packaged.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { runInThisContext } from 'node:vm';

const sdk = process.env.BENCH_MCP_SDK
  ? shipped(process.env.BENCH_MCP_SDK)
  : {
      ...(await import('@modelcontextprotocol/sdk/server/index.js')),
      ...(await import('@modelcontextprotocol/sdk/server/stdio.js')),
      ...(await import('@modelcontextprotocol/sdk/types.js')),
    };
const server = new sdk.Server(
  { name: 'twin', version: '1.0.0' },
  // No elicitation is asked for, so nothing to validate (as in lms, whose SDK file leaves ajv out).
  {
    capabilities: { tools: {} },
    jsonSchemaValidator: { getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'none' }) },
  },
);
server.setRequestHandler(sdk.ListToolsRequestSchema, async () => ({ tools: [] }));
await server.connect(new sdk.StdioServerTransport());

/**
 * A file of the build, which is written as the function Node's CommonJS loader would wrap it in (bin/lms compiles it as
 * read).
 */
function shipped(file) {
  const module = { exports: {} };
  runInThisContext(readFileSync(file, 'latin1'), { filename: file })(
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
  );
  return module.exports;
}
