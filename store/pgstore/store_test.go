package pgstore

import (
	"testing"

	"github.com/agentcompact/compact/store"
	"github.com/agentcompact/compact/store/storetest"
)

func TestConformance(t *testing.T) {
	s := newTestStore(t)
	storetest.Run(t, func(t *testing.T) store.Store { return s })
}
