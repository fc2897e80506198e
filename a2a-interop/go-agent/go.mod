module github.com/a2a-conform/a2a-conform/a2a-interop/go-agent

go 1.26.0

require github.com/a2aproject/a2a-go/v2 v2.4.0

require (
	github.com/google/uuid v1.6.0 // indirect
	golang.org/x/sync v0.20.0 // indirect
)
