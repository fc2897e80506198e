package cli

import (
	"flag"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/runner"
	"github.com/a2a-conform/a2a-conform/internal/topology"
)

// fileOnlyKeys documents the config keys that have no flag: the flag set
// cannot describe them, and the reference page must. A Config field without
// a flag and without an entry here fails the generator's test.
var fileOnlyKeys = map[string]string{
	"prompt-map": "for an agent without the directive extension: for each behaviour the timing specs need " +
		"(`complete`, `slow`, `input-required`, `fail`, `reject`, `message`, `artifacts`, `auth-required`), the text that makes the agent show it; " +
		"a missing key makes the specs that need it could-not-run, naming the key " +
		"([examples/reference-prompt-map.yaml](../examples/reference-prompt-map.yaml), [examples/llm-prompt-map.yaml](../examples/llm-prompt-map.yaml))",
	"implementation-name":    "the implementation's name in the report and the scorecard, instead of the card's `name`",
	"implementation-version": "the implementation's version in the report and the scorecard, instead of the card's `version`",
}

// configKey is one row of the reference: a flag, a config-file key, or both.
type configKey struct {
	name       string
	flag, file bool
	kind       string
	def        string
	usage      string
}

// configKeys joins the run FlagSet and runner.Config's yaml tags by name:
// every flag is a config key of the same name (except --config itself), and
// a few keys exist only in the file.
func configKeys() ([]configKey, error) {
	var a runArgs
	fs := runFlagSet(io.Discard, &a)
	fields := map[string]reflect.StructField{}
	t := reflect.TypeOf(runner.Config{})
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if jn, _, _ := strings.Cut(f.Tag.Get("json"), ","); jn != name {
			return nil, fmt.Errorf("runner.Config.%s: yaml key %q and json key %q differ", f.Name, name, jn)
		}
		if name == "" || name == "-" {
			continue
		}
		fields[name] = f
	}
	var keys []configKey
	var errs []string
	fs.VisitAll(func(fl *flag.Flag) {
		k := configKey{name: fl.Name, flag: true}
		_, k.usage = flag.UnquoteUsage(fl)
		k.def = fl.DefValue
		if f, ok := fields[fl.Name]; ok {
			k.file = true
			k.kind = kindOf(f.Type)
			delete(fields, fl.Name)
		} else if fl.Name != "config" {
			errs = append(errs, fmt.Sprintf("flag --%s has no runner.Config field with yaml key %q, so the config file cannot set it", fl.Name, fl.Name))
		} else {
			k.kind = "path"
		}
		keys = append(keys, k)
	})
	for name, f := range fields {
		usage, ok := fileOnlyKeys[name]
		if !ok {
			errs = append(errs, fmt.Sprintf("config key %q (runner.Config.%s) has no flag and no entry in fileOnlyKeys", name, f.Name))
			continue
		}
		keys = append(keys, configKey{name: name, file: true, kind: kindOf(f.Type), usage: usage})
	}
	if len(errs) > 0 {
		sort.Strings(errs)
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].name < keys[j].name })
	return keys, nil
}

func kindOf(t reflect.Type) string {
	switch {
	case t == reflect.TypeOf(time.Duration(0)):
		return "duration (`30s`, `2m`)"
	case t.Kind() == reflect.Slice:
		return "list of " + t.Elem().Kind().String() + "s"
	case t.Kind() == reflect.Map:
		return "map " + t.Key().Kind().String() + " → " + t.Elem().Kind().String()
	case t.Kind() == reflect.Int64, t.Kind() == reflect.Int:
		return "integer"
	}
	return t.Kind().String()
}

// ConfigReference renders docs/config-reference.md from the code: the run
// flags (their usage text) and runner.Config's keys. A test fails when the
// committed page differs, so the page cannot drift from the binary.
func ConfigReference() (string, error) {
	keys, err := configKeys()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(`# Configuration reference: ` + "`a2a-conform run`" + `

<!-- Generated from internal/cli (the run flags) and internal/runner.Config (the config-file keys).
     Do not edit: change the code, then UPDATE_GOLDEN=1 go test ./internal/cli -run TestConfigReference -->

Every flag of ` + "`a2a-conform run`" + ` is also a key of the config file (` + "`--config FILE`" + `, YAML or JSON)
with the same name; a flag given on the command line wins over the file. A list given as a flag
(repeatable or comma-separated) replaces the file's list. Unknown keys in the file are an error,
so a typo never silently drops a setting. Examples: [examples/](../examples/).

Auth headers can also come from the environment variable ` + "`$" + runner.HeaderEnv + "`" + `, one ` + "`Name: value`" + ` per
line, added to ` + "`header`" + `: use it for CI secrets, so that they never appear on a command line.
The second identity's (` + "`second-header`" + `) can come from ` + "`$" + runner.SecondHeaderEnv + "`" + ` the same way.
Header values, both identities', are redacted from every report. Setting ` + "`$" + topology.AgentLogEnv + "`" + ` (to anything)
sends the embedded reference agents' own logs to standard error, to debug a run against them.

| key | flag | file | type | default | meaning |
| --- | --- | --- | --- | --- | --- |
`)
	for _, k := range keys {
		flagCol, fileCol := "—", "—"
		if k.flag {
			flagCol = "`--" + k.name + "`"
		}
		if k.file {
			fileCol = "yes"
		}
		def := k.def
		switch {
		case def == "" || def == "0" || def == "0s" || def == "false" || def == "[]":
			def = "—"
		default:
			def = "`" + def + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", k.name, flagCol, fileCol, k.kind, def, mdCell(k.usage))
	}
	b.WriteString(`
A default of — means the flag's zero value, which the harness replaces as the meaning column says.
The exit codes are in the README ([Exit codes](../README.md#exit-codes)).

## Hooks driver

With ` + "`--target`" + ` and at least one ` + "`hook-…`" + ` command, the run's topology driver is ` + "`hooks`" + `: the
rollout specs that need no instance identity change your deployment by running your commands
(ROLL-001, ROLL-002, and ROLL-008, which through one endpoint can check only part of its title);
the others are could-not-run, naming what they need. Each command runs with ` + "`/bin/sh -c`" + ` in a
process group of its own, one at a time, and must return once its change is done. It gets at most
` + "`hook-timeout`" + `; then the group gets SIGTERM, and SIGKILL ` + topology.HookStopGrace.String() + ` later. After it exits 0 the harness
waits (at most ` + topology.ReadyTimeout.String() + `) until the target's card answers with anything but 502, 503 or 504. A command
that exits non-zero or times out, or a target that does not come back, makes the spec
could-not-run with the exit status and the last lines of the output, never pass or fail. Each
command's output goes to ` + "`DIR/" + runner.HookLog + "`" + `, and its exit status, time and last lines into the spec's
observations (` + "`hook.POINT`" + `); keep credentials out of the command line, which failure reasons
quote, and take them from the environment, which the command inherits. Besides the harness's
environment a command gets:

| variable | value |
| --- | --- |
`)
	for _, v := range topology.HookEnvVars {
		fmt.Fprintf(&b, "| `%s` | %s |\n", v.Name, mdCell(v.Meaning))
	}
	b.WriteString(`
Example: [examples/staging-hooks.yaml](../examples/staging-hooks.yaml).
`)
	return b.String(), nil
}
