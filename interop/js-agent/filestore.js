// A TaskStore shared by several agent processes through the file system, so
// that a2a-conform's process driver can run `--instances N` of this agent on
// one {store}.
//
// Layout: the --store path is a directory; each task is one JSON file named
// after a hash of (tenant, owner, task id). A save writes a temporary file and
// renames it over the old one, so a reader never sees half a task and needs no
// lock. A save holds a per-task lock file (O_EXCL create) for its
// read-check-write, because it refuses to replace a terminal state with a
// different one: the first terminal write wins, as the SDK's own stores do
// (a2a-js #636; ../../../shared/a2a-v1.md §5 "Race", §11). That is what keeps a
// cancel made by one instance from being overwritten by another instance's
// script finishing.
//
// Limits, on purpose (this is a test agent, not a database):
//   - list reads every task file: O(tasks) per ListTasks;
//   - a lock older than staleLockMs is broken (a crashed holder), so a save
//     that stalls longer than that can race;
//   - local file systems only (rename and O_EXCL semantics over NFS vary);
//   - only tasks are shared: event buses (streams, SubscribeToTask) and push
//     configs stay per instance, so a stream on one instance does not see a
//     cancel made on another until the task is read again.
import { promises as fs } from "node:fs";
import { createHash, randomUUID } from "node:crypto";
import path from "node:path";
import { InMemoryTaskStore, resolveUserScope } from "@a2a-js/sdk/server";

const TERMINAL = new Set([3, 4, 5, 7]); // COMPLETED, FAILED, CANCELED, REJECTED
const lockRetryMs = 2;
const lockTimeoutMs = 5000;
const staleLockMs = 10000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Tasks hold bytes (raw parts): Buffers, or Uint8Arrays once structuredClone
// has copied them. JSON keeps them as base64; the replacer looks at the value
// before toJSON ran (this[key]), since a Uint8Array would otherwise become an
// object of numbered members.
function encode(value) {
  return JSON.stringify(value, function (key, v) {
    const orig = this[key];
    return ArrayBuffer.isView(orig) ? { $buffer: Buffer.from(orig.buffer, orig.byteOffset, orig.byteLength).toString("base64") } : v;
  });
}
function decode(text) {
  return JSON.parse(text, (_k, v) => (v && typeof v.$buffer === "string" ? Buffer.from(v.$buffer, "base64") : v));
}

export class FileTaskStore {
  constructor(dir) {
    this.dir = dir;
  }

  async init() {
    await fs.mkdir(this.dir, { recursive: true });
  }

  scope(context) {
    return { tenant: context?.tenant ?? "", owner: resolveUserScope(context) ?? "" };
  }

  file(taskId, context) {
    const { tenant, owner } = this.scope(context);
    const h = createHash("sha256").update(`${tenant}\0${owner}\0${taskId}`).digest("hex");
    return path.join(this.dir, `${h}.json`);
  }

  async readEntry(file) {
    try {
      return decode(await fs.readFile(file, "utf8"));
    } catch (err) {
      if (err.code === "ENOENT") return undefined;
      throw err;
    }
  }

  async load(taskId, context) {
    const entry = await this.readEntry(this.file(taskId, context));
    return entry?.task;
  }

  async save(task, context) {
    const file = this.file(task.id, context);
    await this.withLock(file, async () => {
      const old = (await this.readEntry(file))?.task;
      const was = old?.status?.state;
      if (was !== undefined && TERMINAL.has(was) && task.status?.state !== was) {
        return; // first terminal write wins
      }
      const tmp = `${file}.${process.pid}.${randomUUID()}.tmp`;
      await fs.writeFile(tmp, encode({ ...this.scope(context), task }));
      await fs.rename(tmp, file);
    });
  }

  async list(params, context) {
    // The SDK's own filtering, ordering and cursors, over the tasks of this
    // caller's scope read from disk.
    const { tenant, owner } = this.scope(context);
    const mem = new InMemoryTaskStore();
    for (const name of await fs.readdir(this.dir)) {
      if (!name.endsWith(".json")) continue;
      const entry = await this.readEntry(path.join(this.dir, name));
      if (entry && entry.tenant === tenant && entry.owner === owner) {
        await mem.save(entry.task, context);
      }
    }
    return mem.list(params, context);
  }

  async withLock(file, fn) {
    const lock = `${file}.lock`;
    const deadline = Date.now() + lockTimeoutMs;
    for (;;) {
      try {
        const h = await fs.open(lock, "wx");
        await h.close();
        break;
      } catch (err) {
        if (err.code !== "EEXIST") throw err;
        const st = await fs.stat(lock).catch(() => undefined);
        if (st && Date.now() - st.mtimeMs > staleLockMs) {
          await fs.rm(lock, { force: true });
          continue;
        }
        if (Date.now() > deadline) throw new Error(`task store: lock ${lock} held for more than ${lockTimeoutMs} ms`);
        await sleep(lockRetryMs);
      }
    }
    try {
      return await fn();
    } finally {
      await fs.rm(lock, { force: true });
    }
  }
}
