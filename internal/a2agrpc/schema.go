// Package a2agrpc is the A2A gRPC binding's schema (spec §10): the
// lf.a2a.v1.A2AService descriptors, shared by the harness's client and the
// reference agent's server, and the conversions between proto messages and
// the ProtoJSON documents the rest of the harness works in. Working in
// ProtoJSON keeps one wire model (internal/a2a) for all three bindings, and
// transcripts read the same on each.
//
// The descriptors come from a2a.proto, written from the names in the
// project's protocol reference, its numbers checked against the official
// a2a.proto of v1.0.0 (wire_test.go), and compiled at start-up
// (protocompile); FromDescriptorSet replaces it with another descriptor set.
package a2agrpc

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"sync"

	"github.com/bufbuild/protocompile"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
)

//go:embed a2a.proto
var protoText string

// ProtoText is the built-in a2a.proto, for `a2a-conform` users who want to
// see (or compile) exactly what the harness speaks.
func ProtoText() string { return protoText }

// Service is the fully-qualified service name (spec §10.1).
const Service = "lf.a2a.v1.A2AService"

// Metadata keys of the service parameters (spec §10.2: lowercase gRPC
// metadata keyed by parameter name).
const (
	MDVersion    = "a2a-version"
	MDExtensions = "a2a-extensions"
)

// Method is one rpc of the service.
type Method struct {
	Name         string // e.g. "GetTask"
	Path         string // "/lf.a2a.v1.A2AService/GetTask"
	In, Out      protoreflect.MessageDescriptor
	ServerStream bool
}

// Schema is a compiled A2AService.
type Schema struct {
	// Origin says where the descriptors came from ("built-in" or a path).
	Origin  string
	svc     protoreflect.ServiceDescriptor
	methods map[string]Method
	order   []string
}

var (
	builtinOnce sync.Once
	builtin     *Schema
	builtinErr  error
)

// Builtin returns the schema compiled from the embedded a2a.proto (once per
// process).
func Builtin() (*Schema, error) {
	builtinOnce.Do(func() {
		c := protocompile.Compiler{
			Resolver: protocompile.WithStandardImports(&protocompile.SourceResolver{
				Accessor: protocompile.SourceAccessorFromMap(map[string]string{"a2a.proto": protoText}),
			}),
		}
		files, err := c.Compile(context.Background(), "a2a.proto")
		if err != nil {
			builtinErr = fmt.Errorf("a2agrpc: compiling the built-in a2a.proto: %w", err)
			return
		}
		builtin, builtinErr = fromFile(files[0], "built-in")
	})
	return builtin, builtinErr
}

// MustBuiltin is Builtin for callers that cannot go on without it: the
// embedded file is part of the binary and tested, so an error is a build bug.
func MustBuiltin() *Schema {
	s, err := Builtin()
	if err != nil {
		panic(err)
	}
	return s
}

// FromDescriptorSet loads the service from a serialized FileDescriptorSet
// (protoc --include_imports --descriptor_set_out), e.g. one built from the
// specification's own a2a.proto, whose field numbers are then authoritative.
func FromDescriptorSet(b []byte, origin string) (*Schema, error) {
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(b, &set); err != nil {
		return nil, fmt.Errorf("a2agrpc: %s is not a FileDescriptorSet: %w", origin, err)
	}
	files, err := protodesc.NewFiles(&set)
	if err != nil {
		return nil, fmt.Errorf("a2agrpc: %s: %w", origin, err)
	}
	d, err := files.FindDescriptorByName(Service)
	if err != nil {
		return nil, fmt.Errorf("a2agrpc: %s does not define %s", origin, Service)
	}
	sd, ok := d.(protoreflect.ServiceDescriptor)
	if !ok {
		return nil, fmt.Errorf("a2agrpc: %s: %s is not a service", origin, Service)
	}
	return fromService(sd, origin)
}

func fromFile(fd protoreflect.FileDescriptor, origin string) (*Schema, error) {
	sd := fd.Services().ByName("A2AService")
	if sd == nil {
		return nil, errors.New("a2agrpc: a2a.proto defines no A2AService")
	}
	return fromService(sd, origin)
}

func fromService(sd protoreflect.ServiceDescriptor, origin string) (*Schema, error) {
	s := &Schema{Origin: origin, svc: sd, methods: map[string]Method{}}
	ms := sd.Methods()
	for i := 0; i < ms.Len(); i++ {
		m := ms.Get(i)
		name := string(m.Name())
		s.methods[name] = Method{Name: name, Path: "/" + Service + "/" + name,
			In: m.Input(), Out: m.Output(), ServerStream: m.IsStreamingServer()}
		s.order = append(s.order, name)
	}
	return s, nil
}

// Method returns one rpc by name.
func (s *Schema) Method(name string) (Method, bool) {
	m, ok := s.methods[name]
	return m, ok
}

// Methods returns the rpc names in declaration order.
func (s *Schema) Methods() []string { return append([]string(nil), s.order...) }

// Message returns a descriptor by its short name within lf.a2a.v1 (e.g.
// "StreamResponse").
func (s *Schema) Message(name string) (protoreflect.MessageDescriptor, bool) {
	md := s.svc.ParentFile().Messages().ByName(protoreflect.Name(name))
	if md != nil {
		return md, true
	}
	// A descriptor set may spread the package over several files.
	if m, ok := s.methods["GetTask"]; ok {
		if d := m.Out.ParentFile().Messages().ByName(protoreflect.Name(name)); d != nil {
			return d, true
		}
	}
	return nil, false
}

// unmarshalJSON ignores unknown members: ProtoJSON parsers SHOULD (spec
// §5.7), and a request the harness builds may carry members a proto message
// cannot (the binding then simply does not send them).
var unmarshalJSON = protojson.UnmarshalOptions{DiscardUnknown: true}

// marshalJSON writes canonical ProtoJSON: lowerCamelCase names, enum names,
// defaults omitted (spec §5.5, ADR-001).
var marshalJSON = protojson.MarshalOptions{}

// FromJSON parses a ProtoJSON document into a new message of type md.
func FromJSON(md protoreflect.MessageDescriptor, doc []byte) (*dynamicpb.Message, error) {
	m := dynamicpb.NewMessage(md)
	if len(doc) == 0 {
		return m, nil
	}
	if err := unmarshalJSON.Unmarshal(doc, m); err != nil {
		return nil, err
	}
	return m, nil
}

// ToJSON renders a message as ProtoJSON.
func ToJSON(m proto.Message) ([]byte, error) {
	return marshalJSON.Marshal(m)
}
