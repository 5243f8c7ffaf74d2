// Package memory is a drop-in schema.Memory for langchaingo that compacts
// the conversation it remembers.
package memory
