package a2agrpc

import (
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/protoadapt"
)

// codeNames are the canonical google.rpc.Code names, as the spec's error
// table writes them (A2A v1.0 §3.3.2).
var codeNames = map[string]codes.Code{
	"OK": codes.OK, "CANCELLED": codes.Canceled, "UNKNOWN": codes.Unknown,
	"INVALID_ARGUMENT": codes.InvalidArgument, "DEADLINE_EXCEEDED": codes.DeadlineExceeded,
	"NOT_FOUND": codes.NotFound, "ALREADY_EXISTS": codes.AlreadyExists,
	"PERMISSION_DENIED": codes.PermissionDenied, "RESOURCE_EXHAUSTED": codes.ResourceExhausted,
	"FAILED_PRECONDITION": codes.FailedPrecondition, "ABORTED": codes.Aborted,
	"OUT_OF_RANGE": codes.OutOfRange, "UNIMPLEMENTED": codes.Unimplemented,
	"INTERNAL": codes.Internal, "UNAVAILABLE": codes.Unavailable, "DATA_LOSS": codes.DataLoss,
	"UNAUTHENTICATED": codes.Unauthenticated,
}

// CodeByName maps "NOT_FOUND" to codes.NotFound; unknown names are Unknown.
func CodeByName(name string) codes.Code {
	if c, ok := codeNames[name]; ok {
		return c
	}
	return codes.Unknown
}

// CodeName maps codes.NotFound to "NOT_FOUND" (the spec's spelling).
func CodeName(c codes.Code) string {
	for n, v := range codeNames {
		if v == c {
			return n
		}
	}
	return c.String()
}

// Info is the google.rpc.ErrorInfo of an A2A error (spec §10.6).
type Info struct {
	Reason, Domain string
	Metadata       map[string]string
}

// Violation is one google.rpc.BadRequest field violation.
type Violation struct{ Field, Description string }

// NewStatus builds a status with the details the spec asks for: ErrorInfo for
// A2A errors (MUST), BadRequest for validation errors.
func NewStatus(code codes.Code, message string, info *Info, bad *Violation) *status.Status {
	st := status.New(code, message)
	var details []protoadapt.MessageV1
	if info != nil {
		details = append(details, &errdetails.ErrorInfo{Reason: info.Reason, Domain: info.Domain, Metadata: info.Metadata})
	}
	if bad != nil {
		details = append(details, &errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{
			{Field: bad.Field, Description: bad.Description}}})
	}
	if len(details) == 0 {
		return st
	}
	withDetails, err := st.WithDetails(details...)
	if err != nil {
		return st
	}
	return withDetails
}

// FindInfo returns the first ErrorInfo among a status's details.
func FindInfo(st *status.Status) (Info, bool) {
	for _, d := range st.Details() {
		if ei, ok := d.(*errdetails.ErrorInfo); ok {
			return Info{Reason: ei.GetReason(), Domain: ei.GetDomain(), Metadata: ei.GetMetadata()}, true
		}
	}
	return Info{}, false
}

// StatusJSON renders a status as the ProtoJSON google.rpc.Status, details
// with their @type, as the transcript shows it. Details whose type this
// binary does not know are shown by type URL only.
func StatusJSON(st *status.Status) []byte {
	b, err := protojson.MarshalOptions{}.Marshal(st.Proto())
	if err != nil {
		// An unknown Any type: render without the details it could not resolve.
		p := st.Proto()
		p.Details = nil
		b, _ = protojson.Marshal(p)
	}
	return b
}
