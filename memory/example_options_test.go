package memory_test

import (
	"errors"
	"fmt"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/memory"
	lcmemory "github.com/tmc/langchaingo/memory"
)

// NewChecked reports an option out of its range at once, naming it in the
// words compact.New uses; memory.New would report it at the first call.
func ExampleNewChecked() {
	c, err := compact.New(compact.WithModel("gpt-4o"))
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = memory.NewChecked(c, memory.WithRetrievalReserve(2.0))
	fmt.Println(errors.Is(err, compact.ErrInvalidOption))
	fmt.Println(err)

	mem, err := memory.NewChecked(c, memory.WithChatHistory(lcmemory.NewChatMessageHistory()))
	fmt.Println(mem != nil, err)
	// Output:
	// true
	// memory: compact: invalid option: WithRetrievalReserve: need 0 < share <= 0.9, got 2
	// true <nil>
}
