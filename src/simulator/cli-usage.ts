import { LAYOUT_SPELLINGS } from './guards';

export const DEFAULT_CLI_PORT = 8443;

export const USAGE = `Usage: conference-audio-simulator [options]

A stand-in for a conferencing audio device's local HTTPS API, with a
self-signed certificate: a new one at every start, or with --state-dir the
same one from start to start, so a client's pinned fingerprint keeps matching.

Options:
  --host <address>          listen address (default 127.0.0.1)
  --port <n>                listen port, 0 = any free port (default ${DEFAULT_CLI_PORT})
  --password <text>         password of the general account (default blank)
  --admin-password <text>   password of the admin account (default the enrollment code)
  --enrollment-code <code>  XXX-XXX-XXX (default KQ7-4MZ-9TD)
  --factory-reset           both passwords start as the enrollment code
  --model <310|410|X>       device model (default 410; only 410 serves zones and profiles)
  --zones <file>            JSON file: an array of zones or {"zones": [...]}
  --vendor <word>           word in the Authorization scheme and client header names (default Vendor)
  --firmware <classic|layout>
                            layout: zones only inside /api/v1/room/layout
  --firmware-version <v>    version for the firmware floors, e.g. 1.9.278056-0 (default) or 2.1.0
  --layout-spelling <${LAYOUT_SPELLINGS.join('|')}>
                            how zone fields are spelled inside the layout
  --layout-zone-extras <json>
                            fields added to every layout zone, e.g. '{"on":true}'
  --talker <walk|still|off> the talker on the sound-location stream (default walk: a scripted
                            walk through every zone, pauses in silence, speech outside the zones)
  --talker-at <x,y>         the talker stands and speaks at x,y (mm)
  --muted                   start with the microphone muted (microphoneMute; error (soundLocation)
                            events instead of readings, as after a PATCH of microphoneMute)
  --stall-streams           event streams send their headers and then nothing
  --sound-location-interval <ms>
                            between soundLocation events (default 200)
  --metrics-interval <ms>   between deviceMetrics events (default 5000)
  --stream-limit <n>        event-stream connections a minute per client (default 60)
  --rate-limit <n>          requests a minute per client (default 600)
  --rate-limit-status <429|409>
                            the answer past the rate limit (default 429)
  --bar-unplugged           a speaker bar's cable is out (calibrate answers 409)
  --led-console <colour,state>, --led-network <colour,state>
                            colour none|red|yellow|green, state off|solid|pulsing|blinking|flashing
  --usb <connected|disconnected|unknown>, --components <connected|disconnected|unknown>
  --usb-event <status|connected>
                            usbConnection event data: {status} (default) or {connected: bool}
  --profiles <names>        room profiles, comma-separated (default Standard,Workshop,Lecture)
  --active-profile <name>   the active profile (default the first)
  --calibration-time <ms>   how long a calibration runs (default 20000)
  --volume-range <20|100>   speakerVolume range (default 20)
  --volume-step <n>         one volume change (default 1)
  --write-answer <empty-object|empty-body|echo>
                            what a successful write answers (default empty-object: {})
  --bodyless-events <names> change events sent without a body, comma-separated
  --state-dir <folder>      keep the key and certificate in this folder (simulator-key.pem,
                            owner-only, and simulator-cert.pem) and use them again at the next
                            start; a new pair is made when none is there or it has expired
  --new-certificate         with --state-dir: replace the kept key and certificate
  --help                    show this help

Controls for tests and demos: GET <url>/_simulator/state and the other
/_simulator/ endpoints (no authorization: keep the simulator on a trusted host).
Live streams: PUT /_simulator/talker {"x":..,"y":..} | {"mode":"walk"|"silent"},
PUT /_simulator/mute {"muted":true}, POST /_simulator/streams/drop,
POST /_simulator/streams/end, PUT /_simulator/streams/stall {"stalled":true},
POST /_simulator/change {"event":"ledStateUpdated","data":{...}}.
Device: PUT /_simulator/bar {"unplugged":true}, /led {"led","colour","state"},
/usb {"status","form"?}, /components {"status"}, /firmware-version, /audio,
/volume-scale {"max","step"}, /write-answer, /calibration {"ms"}, /profiles,
/camera-switcher, /network, /bodyless-events, /layout-zone-extras;
POST /_simulator/profiles/active {"profileId"}.`;
