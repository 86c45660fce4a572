package agent

import (
	"bytes"
	"errors"
	"os"
	"strconv"
)

// processGone reports whether process pid has ended: it does not exist,
// or is a zombie awaiting its reaper (which a container without an init
// may never be).
func processGone(pid int) bool {
	st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if errors.Is(err, os.ErrNotExist) {
		return true
	}
	// The state follows the command name's closing parenthesis.
	i := bytes.LastIndexByte(st, ')')
	return err == nil && i >= 0 && i+2 < len(st) && st[i+2] == 'Z'
}
