// The stores several agent processes share through the file system, so that
// a2a-conform's process driver can run `--instances N` of this agent on one
// {store}: FileTaskStore (the SDK's TaskStore) and FilePushNotificationStore
// (its PushNotificationStore).
//
// Layout: the --store path is a directory; each task is one file
// <hash>.json, and its push configs one file <hash>.push, named after a hash
// of (tenant, owner, task id). A write goes to a temporary file renamed over
// the old one, so a reader never sees half a file and needs no lock. A
// read-check-write holds a per-task lock file (O_EXCL create).
//
// Every file operation but list's is synchronous, on purpose. The SDK reads the task,
// merges an event and saves it (ResultManager) with awaits in between, and a
// SubscribeToTask attaches to the task's event bus and then reads its
// snapshot. With the in-memory store all of that finishes within the turn of
// the event loop that published the event; with asynchronous file I/O it
// yields to the loop, and a subscriber arriving in between gets a snapshot
// without the event and the bus after it: the event is in neither
// (../../../shared/a2a-v1.md §3.1.6, §6: nothing lost between the snapshot
// and the updates). Synchronous I/O gives the file store the in-memory
// store's ordering on each instance; the files are small and local, so a
// call blocks the loop for tens of microseconds. Only a lock held by another
// process makes a call wait, in 1 ms sleeps (at most lockTimeoutMs).
//
// A save refuses to replace a terminal state with a different one: the first
// terminal write wins, as the SDK's own stores do (a2a-js #636; a2a-v1.md §5
// "Race", §11). That is what keeps a cancel made by one instance from being
// overwritten by another instance's script finishing.
//
// Limits, on purpose (this is a test agent, not a database):
//   - list reads every task file: O(tasks) per ListTasks, asynchronously;
//   - a lock older than staleLockMs is broken (a crashed holder);
//   - local file systems only (rename and O_EXCL semantics over NFS vary).
import fs from "node:fs";
import { createHash, randomUUID } from "node:crypto";
import path from "node:path";
import { InMemoryTaskStore, resolveUserScope } from "@a2a-js/sdk/server";

export const TERMINAL = new Set([3, 4, 5, 7]); // COMPLETED, FAILED, CANCELED, REJECTED
const lockTimeoutMs = 5000;
const staleLockMs = 10000;
// The wire version the SDK's in-memory push store records for a config
// registered without one (its A2A_LEGACY_PROTOCOL_VERSION).
const legacyWireVersion = "0.3";

const pause = new Int32Array(new SharedArrayBuffer(4));
const sleepSync = (ms) => Atomics.wait(pause, 0, 0, ms);

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

function readEntry(file) {
  try {
    return decode(fs.readFileSync(file, "utf8"));
  } catch (err) {
    if (err.code === "ENOENT") return undefined;
    throw err;
  }
}

function writeEntry(file, value) {
  const tmp = `${file}.${process.pid}.${randomUUID()}.tmp`;
  fs.writeFileSync(tmp, encode(value));
  fs.renameSync(tmp, file);
}

function withLock(file, fn) {
  const lock = `${file}.lock`;
  const deadline = Date.now() + lockTimeoutMs;
  for (;;) {
    try {
      fs.closeSync(fs.openSync(lock, "wx"));
      break;
    } catch (err) {
      if (err.code !== "EEXIST") throw err;
      let st;
      try {
        st = fs.statSync(lock);
      } catch {
        continue; // released between the open and the stat
      }
      if (Date.now() - st.mtimeMs > staleLockMs) {
        fs.rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`store: lock ${lock} held for more than ${lockTimeoutMs} ms`);
      sleepSync(1);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

class Scoped {
  constructor(dir, ext) {
    this.dir = dir;
    this.ext = ext;
    fs.mkdirSync(dir, { recursive: true });
  }

  scope(context) {
    return { tenant: context?.tenant ?? "", owner: resolveUserScope(context) ?? "" };
  }

  file(taskId, context) {
    const { tenant, owner } = this.scope(context);
    const h = createHash("sha256").update(`${tenant}\0${owner}\0${taskId}`).digest("hex");
    return path.join(this.dir, h + this.ext);
  }
}

export class FileTaskStore extends Scoped {
  constructor(dir) {
    super(dir, ".json");
  }

  async load(taskId, context) {
    return readEntry(this.file(taskId, context))?.task;
  }

  async save(task, context) {
    this.saveSync(task, context);
  }

  // saveSync stores task unless the stored one is already terminal in
  // another state, and returns the task the store holds afterwards.
  saveSync(task, context) {
    const file = this.file(task.id, context);
    return withLock(file, () => {
      const old = readEntry(file)?.task;
      const was = old?.status?.state;
      if (was !== undefined && TERMINAL.has(was) && task.status?.state !== was) {
        return old; // first terminal write wins
      }
      writeEntry(file, { ...this.scope(context), task });
      return task;
    });
  }

  // list reads asynchronously, unlike the rest: it reads every task file,
  // and done in one go it would hold up every other request of this
  // instance for as long. A listing is a snapshot of no particular instant
  // anyway (a2a-v1.md §9 orders it, it does not freeze it).
  async list(params, context) {
    // The SDK's own filtering, ordering and cursors, over the tasks of this
    // caller's scope read from disk.
    const { tenant, owner } = this.scope(context);
    const mem = new InMemoryTaskStore();
    for (const name of await fs.promises.readdir(this.dir)) {
      if (!name.endsWith(this.ext)) continue;
      let entry;
      try {
        entry = decode(await fs.promises.readFile(path.join(this.dir, name), "utf8"));
      } catch (err) {
        if (err.code === "ENOENT") continue;
        throw err;
      }
      if (entry.tenant === tenant && entry.owner === owner) {
        await mem.save(entry.task, context);
      }
    }
    return mem.list(params, context);
  }
}

// FilePushNotificationStore keeps the SDK's InMemoryPushNotificationStore's
// semantics (an id assigned when empty, a save with a known id replaces it,
// the wire version recorded) in a file per task, so that a config created
// through one instance is delivered by whichever instance runs the task,
// and survives a restart (a2a-v1.md §7.1: a config persists until the task
// completes).
export class FilePushNotificationStore extends Scoped {
  constructor(dir) {
    super(dir, ".push");
  }

  entries(taskId, context) {
    return readEntry(this.file(taskId, context))?.entries ?? [];
  }

  async save(taskId, context, config) {
    if (!config.id) config.id = randomUUID();
    const wireVersion = context?.requestedVersion || legacyWireVersion;
    const file = this.file(taskId, context);
    withLock(file, () => {
      const entries = (readEntry(file)?.entries ?? []).filter((e) => e.config.id !== config.id);
      entries.push({ config: structuredClone(config), wireVersion });
      writeEntry(file, { entries });
    });
  }

  async load(taskId, context) {
    return this.entries(taskId, context).map((e) => e.config);
  }

  async loadWithMetadata(taskId, context) {
    return this.entries(taskId, context);
  }

  async delete(taskId, context, configId) {
    if (configId === undefined) configId = taskId;
    const file = this.file(taskId, context);
    withLock(file, () => {
      const entries = readEntry(file)?.entries;
      if (!entries) return;
      const rest = entries.filter((e) => e.config.id !== configId);
      if (rest.length === 0) fs.rmSync(file, { force: true });
      else if (rest.length !== entries.length) writeEntry(file, { entries: rest });
    });
  }
}
