//go:build tools

// Package compact pins the code generators used by go:generate, so that
// go.mod records their versions.
package compact

import (
	_ "go.uber.org/mock/mockgen"
)
