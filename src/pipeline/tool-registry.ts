import type { ToolFilter } from '../config/tool-filter.js';
import { ToolCatalog } from '../registry/tool-catalog.js';
import type { Tool, ToolContext } from '../tool/tool.js';
import type {
  ApprovalHandler,
  PersistedToolResultMessage,
  ToolHookContext,
  ToolMiddleware,
  ToolResultPersistEvent,
} from './tool-call-hooks.js';
import { ToolPipeline } from './tool-pipeline.js';

/** Options of {@link ToolRegistry}. */
export interface ToolRegistryOptions extends ToolFilter {
  /**
   * Decides approvals that hooks and policies ask for (`requireApproval`), unless the call's
   * scope has its own (the gateway asks its caller). Without one, approvals are denied.
   */
  onApproval?: ApprovalHandler;
  /** Told of every failure of a hook or middleware (already attributed to its plugin or middleware). */
  onPipelineError?: (message: string, error: unknown) => void;
}

/**
 * The registry as an agent, a router or the gateway uses it: the {@link ToolCatalog} of every
 * tool, whose tools are handed out (`get`, `resolveAll`) with each call passing the tool-call
 * pipeline (middlewares, hooks, policies, approvals). The pipeline wraps the catalog; the
 * catalog knows nothing of it.
 *
 * @example
 * const registry = new ToolRegistry({ deny: ['*delete*'] });
 * registry.register(echoTool);
 * registry.use({ name: 'audit', afterToolCall: (event) => console.log(event.toolName, event.outcome) });
 * const tools = await registry.resolveAll({ workspaceDir: process.cwd() });
 */
export class ToolRegistry extends ToolCatalog {
  /**
   * The tool-call pipeline, made by the first `use` or `onApproval`. While it has no
   * middleware, tools are handed out as registered, at no cost per call.
   */
  #pipeline: ToolPipeline | undefined;
  readonly #onPipelineError: ((message: string, error: unknown) => void) | undefined;

  constructor(options: ToolRegistryOptions = {}) {
    super(options);
    this.#onPipelineError = options.onPipelineError;
    if (options.onApproval) this.onApproval(options.onApproval);
  }

  /**
   * Adds a middleware to the tool-call pipeline: its `beforeToolCall` and `afterToolCall` run
   * around every call of every tool this registry hands out from then on (`get`,
   * `resolveAll`), with OpenClaw's hook semantics (see {@link ToolMiddleware}). Returns the
   * function that removes it. Add middlewares before handing tools out: a tool obtained
   * while none was in place is the bare tool.
   *
   * @example
   * registry.use({ name: 'audit', afterToolCall: (event) => console.log(event.toolName, event.outcome) });
   */
  use(middleware: ToolMiddleware): () => void {
    return this.#pipelineOf().use(middleware);
  }

  /** Sets the host's approval handler (see {@link ToolRegistryOptions.onApproval}). */
  onApproval(handler: ApprovalHandler | undefined): void {
    this.#pipelineOf().setApprovalHandler(handler);
  }

  /**
   * Runs the `tool_result_persist` hooks over a toolResult message the host is about to
   * persist (an agent loop's transcript) and returns the message to write.
   */
  persistToolResult(
    event: ToolResultPersistEvent,
    context?: Partial<ToolHookContext>,
  ): PersistedToolResultMessage {
    return this.#pipeline === undefined ? event.message : this.#pipeline.persistToolResult(event, context);
  }

  #pipelineOf(): ToolPipeline {
    this.#pipeline ??= new ToolPipeline(this.#onPipelineError ? { onError: this.#onPipelineError } : {});
    return this.#pipeline;
  }

  /** The static tool named `name` if it is registered and passes the filters, its calls through the pipeline. */
  override get(name: string): Tool | undefined {
    const tool = super.get(name);
    return tool !== undefined && this.#pipeline?.active ? this.#pipeline.wrap(tool) : tool;
  }

  /**
   * Every enabled tool (see {@link ToolCatalog.resolveAll}), each call through the pipeline
   * with `context`. Tools are wrapped only while a middleware is in place (an approval handler
   * alone costs nothing).
   */
  override async resolveAll(
    context: ToolContext = {},
    options: { onError?: (error: unknown, names: string[]) => void } = {},
  ): Promise<Tool[]> {
    const pipeline = this.#pipeline?.active ? this.#pipeline : undefined;
    const tools = await super.resolveAll(context, options);
    return pipeline === undefined ? tools : tools.map((tool) => pipeline.wrap(tool, context));
  }

  /**
   * `tool`, which is not registered here, with each call passing this registry's pipeline
   * (policies, hooks, guards, audit) as a registered tool's calls do: for a tool served beside
   * the registry's own, such as a gateway profile's `run_script`. A middleware added later
   * applies as well (the pipeline is looked up at each call).
   */
  throughPipeline(tool: Tool, context?: ToolContext): Tool {
    return {
      ...tool,
      execute: (toolCallId, params, signal, onUpdate, call) => {
        const pipeline = this.#pipeline?.active ? this.#pipeline : undefined;
        const target = pipeline === undefined ? tool : pipeline.wrap(tool, context);
        return target.execute(toolCallId, params, signal, onUpdate, call);
      },
    };
  }
}
