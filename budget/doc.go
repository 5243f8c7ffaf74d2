// Package budget counts tokens and knows model context windows.
//
// Full documentation follows once the figures are measured.
package budget
