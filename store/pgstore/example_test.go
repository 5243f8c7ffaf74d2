package pgstore_test

import (
	"context"
	"fmt"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/memory"
	"github.com/agentcompact/compact/middleware"
	"github.com/agentcompact/compact/store/pgstore"
	"github.com/tmc/langchaingo/llms"
)

// Both adapters on one PostgreSQL store, as every replica of a service
// would set them up. (Not run as a test: it needs a server; the package's
// tests run the same against COMPACT_POSTGRES_DSN.)
func Example() {
	ctx := context.Background()
	s, err := pgstore.New(ctx, "postgres://postgres@127.0.0.1:5432/test?sslmode=disable")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	c, err := compact.New(compact.WithModel("gpt-4o"))
	if err != nil {
		fmt.Println(err)
		return
	}
	mem := memory.New(c, memory.WithStore(s), memory.WithSessionID("conversation-42"))
	_ = mem
	var model llms.Model // the service's model
	llm := middleware.Wrap(model, c, middleware.WithStore(s))
	_ = llm
}
