//go:build !race

package middleware

import (
	"testing"

	"github.com/tmc/langchaingo/testing/llmtest"
)

// TestConformanceMockLLM runs the conformance suite on Wrap(llmtest.MockLLM)
// itself. MockLLM counts its calls without a lock while the suite runs in
// parallel, so under -race the same check runs through lockedMock
// (TestConformance).
func TestConformanceMockLLM(t *testing.T) {
	llmtest.TestLLM(t, Wrap(conformanceMock(), newCompactor(t, 128_000)))
}
