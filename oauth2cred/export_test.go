package oauth2cred

// SetWaiting makes f called by every call that is about to wait for
// another's check or fetch of a token, until the test ends.
func SetWaiting(t interface{ Cleanup(func()) }, f func()) {
	waiting = f
	t.Cleanup(func() { waiting = nil })
}
