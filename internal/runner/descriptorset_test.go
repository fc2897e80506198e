package runner_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bufbuild/protocompile"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/a2a-conform/a2a-conform/internal/a2agrpc"
	"github.com/a2a-conform/a2a-conform/reports"
)

// descriptorSet compiles proto text as a2a.proto and serializes it with its
// imports, as protoc --include_imports --descriptor_set_out would.
func descriptorSet(t *testing.T, text string) string {
	t.Helper()
	c := protocompile.Compiler{Resolver: protocompile.WithStandardImports(&protocompile.SourceResolver{
		Accessor: protocompile.SourceAccessorFromMap(map[string]string{"a2a.proto": text}),
	})}
	files, err := c.Compile(context.Background(), "a2a.proto")
	if err != nil {
		t.Fatal(err)
	}
	var set descriptorpb.FileDescriptorSet
	seen := map[string]bool{}
	var add func(fd protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		for i := 0; i < fd.Imports().Len(); i++ {
			add(fd.Imports().Get(i).FileDescriptor)
		}
		set.File = append(set.File, protodesc.ToFileDescriptorProto(fd))
	}
	add(files[0])
	b, err := proto.Marshal(&set)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "a2a.pb")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// --grpc-descriptor-set replaces the built-in descriptors on gRPC
// interfaces: the built-in ones serialized give the same verdicts; a set
// whose COMPLETED and FAILED numbers are swapped against the agent's makes
// the harness read a completed task as failed over gRPC (LIFE-025 no longer
// passes), which shows the file is what the client used; a file that is not a descriptor set, or lacks the
// service, is a usage error.
func TestGRPCDescriptorSet(t *testing.T) {
	t.Parallel()
	text := a2agrpc.ProtoText()
	same := descriptorSet(t, text)
	swapped := strings.NewReplacer("TASK_STATE_COMPLETED = 3;", "TASK_STATE_COMPLETED = 4;",
		"TASK_STATE_FAILED = 4;", "TASK_STATE_FAILED = 3;").Replace(text)
	if swapped == text {
		t.Fatal("the built-in proto no longer has the TaskState values this test swaps")
	}
	other := descriptorSet(t, swapped)

	r := runCLI(t, nil, "--focus", "LIFE-025", "--seed", "7", "--grpc-descriptor-set", same)
	if r.report == nil || verdicts(r.report)["LIFE-025"] != reports.Pass {
		t.Fatalf("with the built-in descriptors from a file: exit %d\n%s\n%s", r.exit, r.stdout, r.stderr)
	}
	r = runCLI(t, nil, "--focus", "LIFE-025", "--seed", "7", "--grpc-descriptor-set", other)
	if r.report == nil || verdicts(r.report)["LIFE-025"] == reports.Pass || verdicts(r.report)["LIFE-025"] == "" {
		t.Fatalf("with TaskState numbers the agent does not use, LIFE-025 should not pass: exit %d\n%s\n%s", r.exit, r.stdout, r.stderr)
	}

	garbage := filepath.Join(t.TempDir(), "garbage.pb")
	if err := os.WriteFile(garbage, []byte("not a descriptor set"), 0o644); err != nil {
		t.Fatal(err)
	}
	noService := descriptorSet(t, "syntax = \"proto3\";\npackage lf.a2a.v1;\nmessage Nothing {}\n")
	for _, bad := range []string{garbage, noService, filepath.Join(t.TempDir(), "missing.pb")} {
		r := runCLI(t, nil, "--focus", "LIFE-025", "--grpc-descriptor-set", bad)
		if r.exit != 2 || !strings.Contains(r.stderr+r.stdout, "--grpc-descriptor-set") {
			t.Errorf("--grpc-descriptor-set %s: exit %d, want 2 naming the flag\n%s\n%s", filepath.Base(bad), r.exit, r.stdout, r.stderr)
		}
	}
}
