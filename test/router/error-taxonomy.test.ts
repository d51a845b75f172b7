import { describe, expect, it } from 'vitest';
import { McpToolsError, type McpToolsErrorCode } from '../../src/errors/mcp-tools-error.js';
import { classifyRouterError, routerError, routerErrorSummary } from '../../src/router/error-taxonomy.js';

describe('router error taxonomy (its types and the error codes)', () => {
  const table: [McpToolsErrorCode, string, boolean][] = [
    ['CONNECTION_FAILED', 'ConnectionFailed', true],
    ['SERVER_DISCONNECTED', 'ConnectionFailed', true],
    ['TIMEOUT', 'Timeout', true],
    ['RESOURCE_NOT_FOUND', 'ResourceNotFound', false],
    ['PERMISSION_DENIED', 'PermissionDenied', false],
    ['INVALID_URI', 'InvalidURI', true],
    ['TOOL_NOT_FOUND', 'ToolNotFound', false],
    ['INVALID_ARGUMENTS', 'InvalidArguments', true],
    ['ABORTED', 'Aborted', true],
  ];
  for (const [code, type, recoverable] of table) {
    it(`maps ${code} to ${type} (recoverable: ${recoverable})`, () => {
      const classified = classifyRouterError(new McpToolsError(code, 'boom'));
      expect(classified).toEqual({ type, code, msg: 'boom', recoverable });
    });
  }

  it('refines an upstream error carrying JSON-RPC -32002 into ResourceNotFound', () => {
    const error = new McpToolsError('UPSTREAM_ERROR', 'Resource res://x', { data: { rpcCode: -32002 } });
    expect(classifyRouterError(error)).toMatchObject({ type: 'ResourceNotFound', recoverable: false });
  });

  it('refines upstream errors by message and keeps the rest as UpstreamError with their recoverability', () => {
    expect(classifyRouterError(new McpToolsError('UPSTREAM_ERROR', 'Unknown resource: a://b')).type).toBe(
      'ResourceNotFound',
    );
    expect(classifyRouterError(new McpToolsError('UPSTREAM_ERROR', 'Access forbidden')).type).toBe(
      'PermissionDenied',
    );
    const other = classifyRouterError(new McpToolsError('UPSTREAM_ERROR', 'internal', { recoverable: true }));
    expect(other).toMatchObject({ type: 'UpstreamError', recoverable: true });
  });

  it('classifies plain errors and timeouts that did not go through the hub', () => {
    const timeout = new Error('t');
    timeout.name = 'TimeoutError';
    expect(classifyRouterError(timeout).type).toBe('Timeout');
    expect(classifyRouterError(new Error('connect ECONNREFUSED 127.0.0.1:1')).type).toBe('ConnectionFailed');
    expect(classifyRouterError('weird').type).toBe('UpstreamError');
  });

  it('writes each type’s summary naming the target', () => {
    expect(routerErrorSummary(routerError('RESOURCE_NOT_FOUND', 'x'), 'file://missing.md')).toBe(
      'not found: file://missing.md',
    );
    expect(routerErrorSummary(routerError('PERMISSION_DENIED', 'x'), 'a://b')).toBe(
      'permission denied: a://b',
    );
    expect(routerErrorSummary(routerError('INVALID_URI', 'x'))).toBe('invalid URI format');
    expect(routerErrorSummary(routerError('CONNECTION_FAILED', 'x'))).toContain('connection failed');
  });
});
