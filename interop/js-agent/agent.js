#!/usr/bin/env node
// A small A2A v1.0 agent built on the official JS SDK (@a2a-js/sdk), with the
// a2a-conform directive extension (docs/directive-extension.md). It is the
// third-party agent a2a-conform's interop test runs every suite against: the
// SDK does the protocol (both bindings, card, store, streams, push); this file
// only scripts tasks, as a vendor's test build would.
//
//   node agent.js --port 8080 [--host 127.0.0.1] [--store DIR] [--name NAME]
//
// --store DIR shares tasks between instances through the file system
// (filestore.js, with its limits); without it tasks live in memory.
import express from "express";
import {
  AgentEvent,
  DefaultPushNotificationSender,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
} from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import { RequestMalformedError, TaskNotFoundError, UnsupportedOperationError } from "@a2a-js/sdk/errors";
import { FileTaskStore } from "./filestore.js";

const DIRECTIVE_URI = "https://a2a-conform.dev/extensions/directive/v1";
const DIRECTIVE_KEY = "a2aConformDirective";
const DIRECTIVE_VERSIONS = [1];
const MAX_DELAY_MS = 600000;
const MAX_CHUNKS = 100;
const MAX_TEXT_BYTES = 64 * 1024;

const State = { SUBMITTED: 1, WORKING: 2, COMPLETED: 3, FAILED: 4, CANCELED: 5, INPUT_REQUIRED: 6, REJECTED: 7, AUTH_REQUIRED: 8 };
const TERMINAL = new Set([State.COMPLETED, State.FAILED, State.CANCELED, State.REJECTED]);
const OUTCOMES = {
  completed: State.COMPLETED,
  failed: State.FAILED,
  rejected: State.REJECTED,
  "input-required": State.INPUT_REQUIRED,
  "auth-required": State.AUTH_REQUIRED,
  message: null,
};
const ROLE_AGENT = 2;

function parseArgs(argv) {
  const opts = { host: "127.0.0.1", port: 0, store: "", name: "a2a-conform JS SDK agent" };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    switch (flag) {
      case "--port": opts.port = Number(value); break;
      case "--host": opts.host = value; break;
      case "--store": opts.store = value; break;
      case "--name": opts.name = value; break;
      default: throw new Error(`unknown flag ${flag} (usage: agent.js --port N [--host H] [--store DIR] [--name NAME])`);
    }
  }
  if (!Number.isInteger(opts.port) || opts.port <= 0 || opts.port > 65535) throw new Error("--port N is required");
  return opts;
}

// ---- the directive -------------------------------------------------------

// findDirective returns {directive} (undefined when the message has none) or
// throws RequestMalformedError (InvalidParams, -32602 / HTTP 400) for one the
// extension says to refuse.
function findDirective(message) {
  let found;
  for (const part of message?.parts ?? []) {
    const c = part.content;
    if (c?.$case !== "data" || !c.value || typeof c.value !== "object" || Array.isArray(c.value)) continue;
    if (!Object.hasOwn(c.value, DIRECTIVE_KEY)) continue;
    if (found) throw new RequestMalformedError("more than one a2a-conform directive part in the message");
    found = validate(c.value[DIRECTIVE_KEY]);
  }
  return found;
}

function validate(d) {
  const bad = (why) => new RequestMalformedError(`invalid a2a-conform directive: ${why}`);
  if (!d || typeof d !== "object" || Array.isArray(d)) throw bad("not an object");
  if (!Number.isInteger(d.version) || !DIRECTIVE_VERSIONS.includes(d.version)) {
    throw new RequestMalformedError(
      `unsupported a2a-conform directive version ${JSON.stringify(d.version)} (this agent implements ${JSON.stringify(DIRECTIVE_VERSIONS)})`,
    );
  }
  const outcome = d.outcome ?? "completed";
  if (typeof outcome !== "string" || !Object.hasOwn(OUTCOMES, outcome)) throw bad(`unknown outcome ${JSON.stringify(d.outcome)}`);
  const delayMs = d.delayMs ?? 0;
  if (!Number.isInteger(delayMs) || delayMs < 0 || delayMs > MAX_DELAY_MS) throw bad(`delayMs ${JSON.stringify(d.delayMs)} out of range 0..${MAX_DELAY_MS}`);
  const chunks = d.artifactChunks ?? (outcome === "completed" ? 1 : 0);
  if (!Number.isInteger(chunks) || chunks < 0 || chunks > MAX_CHUNKS) throw bad(`artifactChunks ${JSON.stringify(d.artifactChunks)} out of range 0..${MAX_CHUNKS}`);
  if (d.text !== undefined && (typeof d.text !== "string" || Buffer.byteLength(d.text) > MAX_TEXT_BYTES)) throw bad("text must be a string of at most 64 KiB");
  return { outcome, delayMs, chunks, text: d.text };
}

const DEFAULT_DIRECTIVE = { outcome: "completed", delayMs: 0, chunks: 1, text: undefined };

function inputText(message) {
  return (message?.parts ?? []).filter((p) => p.content?.$case === "text").map((p) => p.content.value).join("\n");
}

// chunkText is the i-th (1-based) of n nearly equal pieces of text, split on
// code points, as internal/directive.ChunkText does.
function chunkText(text, i, n) {
  const cps = Array.from(text);
  return cps.slice(Math.floor((cps.length * (i - 1)) / n), Math.floor((cps.length * i) / n)).join("");
}

function textPart(text) {
  return { content: { $case: "text", value: text }, mediaType: "text/plain", filename: "", metadata: undefined };
}

function agentMessage(text, taskId, contextId) {
  return {
    messageId: crypto.randomUUID(),
    contextId,
    taskId,
    role: ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

// ---- the executor ------------------------------------------------------

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

class DirectiveExecutor {
  constructor(taskStore) {
    this.taskStore = taskStore;
    // taskId → {stopped, last}: the script running on this instance.
    this.runs = new Map();
  }

  async execute(ctx, bus) {
    const msg = ctx.userMessage;
    const d = findDirective(msg) ?? DEFAULT_DIRECTIVE;
    const text = d.text ?? inputText(msg);
    const { taskId, contextId } = ctx;

    if (d.outcome === "message") {
      await sleep(d.delayMs);
      bus.publish(AgentEvent.message(agentMessage(text, "", contextId)));
      return;
    }

    const run = { stopped: false, last: undefined };
    this.runs.set(taskId, run);
    const status = (state, message) => ({ state, message, timestamp: new Date().toISOString() });
    const publishStatus = (state, message) => {
      run.last = { taskId, contextId, status: status(state, message), metadata: undefined };
      bus.publish(AgentEvent.statusUpdate(run.last));
    };
    // Another instance may have canceled the task in the shared store. A
    // cancel on this instance may arrive while the store is read, so
    // run.stopped is checked again after the read: the caller publishes in
    // the same turn of the event loop as that last check.
    const stopped = async () => {
      if (run.stopped) return true;
      const t = await this.taskStore.load(taskId, ctx.context);
      return run.stopped || (t !== undefined && TERMINAL.has(t.status?.state));
    };

    try {
      if (ctx.task) {
        // A follow-up to an interrupted task: the SDK wants a task event
        // first; the task moves to WORKING at once, then this message's
        // directive from its artifact chunks on.
        bus.publish(AgentEvent.task({ ...ctx.task, status: status(ctx.task.status?.state ?? State.INPUT_REQUIRED, ctx.task.status?.message) }));
        publishStatus(State.WORKING);
      } else {
        bus.publish(AgentEvent.task({
          id: taskId,
          contextId,
          status: status(State.SUBMITTED),
          artifacts: [],
          history: [msg],
          metadata: undefined,
        }));
        await sleep(d.delayMs);
        if (await stopped()) return;
        publishStatus(State.WORKING);
      }
      const artifactId = crypto.randomUUID();
      for (let i = 1; i <= d.chunks; i++) {
        await sleep(d.delayMs);
        if (await stopped()) return;
        bus.publish(AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: { artifactId, name: "result", description: "", parts: [textPart(chunkText(text, i, d.chunks))], metadata: undefined, extensions: [] },
          append: i > 1,
          lastChunk: i === d.chunks,
          metadata: undefined,
        }));
      }
      await sleep(d.delayMs);
      if (await stopped()) return;
      const final = OUTCOMES[d.outcome];
      const sentence = {
        [State.FAILED]: "the directive asked this task to fail",
        [State.REJECTED]: "the directive asked this task to be rejected",
        [State.INPUT_REQUIRED]: "the directive asks for input: send any message to continue",
        [State.AUTH_REQUIRED]: "the directive asks for authorization: send any message to continue",
      }[final];
      publishStatus(final, sentence ? agentMessage(d.text ?? sentence, taskId, contextId) : undefined);
    } finally {
      this.runs.delete(taskId);
    }
  }

  // cancelTask stops the script and publishes CANCELED. The check and the
  // publication happen in one turn of the event loop, so no script step can
  // slip in between; the SDK's stores keep the first terminal state.
  async cancelTask(taskId, bus) {
    const run = this.runs.get(taskId);
    if (run) run.stopped = true;
    if (run?.last && TERMINAL.has(run.last.status.state)) {
      // The script ended first: say so again, so the SDK's cancel path sees a
      // terminal event and answers TaskNotCancelable.
      bus.publish(AgentEvent.statusUpdate(run.last));
      return;
    }
    const contextId = run?.last?.contextId ?? (await this.findContext(taskId));
    bus.publish(AgentEvent.statusUpdate({
      taskId,
      contextId,
      status: { state: State.CANCELED, message: agentMessage("canceled at the client's request", taskId, contextId), timestamp: new Date().toISOString() },
      metadata: undefined,
    }));
  }

  async findContext(taskId) {
    // The cancel path has no call context; a task of the unauthenticated
    // default scope is the only kind this agent serves.
    const t = await this.taskStore.load(taskId, { user: undefined, tenant: "" });
    return t?.contextId ?? "";
  }
}

// The directive is checked before the SDK creates anything, so an invalid one
// is an InvalidParams error with no task (docs/directive-extension.md
// "Errors"); a follow-up's task is checked first, as the SDK would.
class DirectiveRequestHandler extends DefaultRequestHandler {
  constructor(card, store, executor, ...rest) {
    super(card, store, executor, ...rest);
    this.store = store;
  }

  async precheck(params, context) {
    const taskId = params?.message?.taskId;
    if (taskId) {
      const t = await this.store.load(taskId, context);
      if (!t) throw new TaskNotFoundError(`Task not found: ${taskId}`);
      if (TERMINAL.has(t.status?.state)) throw new UnsupportedOperationError(`Task ${taskId} is in a terminal state and cannot be modified.`);
    }
    findDirective(params?.message);
  }

  async sendMessage(params, context) {
    await this.precheck(params, context);
    return super.sendMessage(params, context);
  }

  async *sendMessageStream(params, context) {
    await this.precheck(params, context);
    yield* super.sendMessageStream(params, context);
  }
}

// ---- the server ----------------------------------------------------------

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const base = `http://${opts.host}:${opts.port}`;
  const card = {
    name: opts.name,
    description: "A2A v1.0 agent on @a2a-js/sdk with the a2a-conform directive extension (a2a-conform interop test)",
    supportedInterfaces: [
      { url: `${base}/a2a/jsonrpc`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" },
      { url: `${base}/a2a/rest`, protocolBinding: "HTTP+JSON", tenant: "", protocolVersion: "1.0" },
    ],
    provider: { organization: "a2a-conform", url: "https://a2a-conform.dev" },
    version: "1.0.0",
    capabilities: {
      streaming: true,
      pushNotifications: true,
      extensions: [{
        uri: DIRECTIVE_URI,
        description: "a2a-conform directive: scripted task behaviour for conformance testing",
        required: false,
        params: { versions: DIRECTIVE_VERSIONS },
      }],
      extendedAgentCard: false,
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain", "application/json"],
    defaultOutputModes: ["text/plain"],
    skills: [{
      id: "directive",
      name: "scripted task",
      description: "Runs the task a2a-conform's directive describes; echoes text otherwise",
      tags: ["test"],
      examples: [],
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
    }],
    signatures: [],
  };

  let taskStore;
  if (opts.store) {
    taskStore = new FileTaskStore(opts.store);
    await taskStore.init();
  } else {
    taskStore = new InMemoryTaskStore();
  }
  const pushStore = new InMemoryPushNotificationStore();
  const executor = new DirectiveExecutor(taskStore);
  const handler = new DirectiveRequestHandler(
    card, taskStore, executor, undefined, pushStore, new DefaultPushNotificationSender(pushStore),
    undefined, undefined,
    // The SDK's own check of part media types against defaultInputModes
    // (§3.1.1 ContentTypeNotSupportedError); off by default in the SDK.
    { validateInputModes: true },
  );

  const app = express();
  app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: handler }));
  app.use("/a2a/jsonrpc", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  app.use("/a2a/rest", restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));

  const server = app.listen(opts.port, opts.host, () => {
    console.log(`${opts.name}: serving A2A v1.0 on ${base} (store: ${opts.store || "memory"})`);
  });
  server.on("error", (err) => {
    console.error(`listen ${base}: ${err.message}`);
    process.exit(1);
  });
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections(); // open streams would hold close() up
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((err) => {
  console.error(err?.stack ?? String(err));
  process.exit(2);
});
