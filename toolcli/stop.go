package toolcli

import "github.com/opentoolgen/opentoolgen/runtime"

// stopOptions are the options of what POST /opentool/stop does under start:
// stop, which ends the serving as SIGTERM does (drain, grace period, exit
// status 0), guarded by the API keys of start (the handler is behind
// RequireAPIKeys as well, but it must know there are keys: without them
// only a peer on this machine may stop it); with --noRemoteStop, nothing
// (HTTP 404).
func stopOptions(s *settings, stop func()) []runtime.ServerOption {
	if s.noRemoteStop {
		return []runtime.ServerOption{runtime.WithNoRemoteStop()}
	}
	return []runtime.ServerOption{runtime.WithAPIKeys(s.keys...), runtime.WithStopFunc(stop)}
}
