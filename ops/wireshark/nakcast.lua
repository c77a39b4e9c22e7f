-- Wireshark dissector for nakcast, reliable UDP multicast messaging.
--
-- Decodes every nakcast datagram of protocol version 3: the 24-byte common header, then per type
-- DATA and RETRANSMIT (the session's age class, message count and the message frames), HEARTBEAT
-- (with the session's age), NAK (its ranges), UNRECOVERABLE and STATUS.
-- The layouts are those drawn in org.nakcast.transport.protocol (HeaderFlyweight and friends);
-- every field is little-endian. What nakcast's own DatagramValidator would reject is shown as
-- expert info (Analyze > Expert Information, or the filter `_ws.expert`), never as a Lua error.
--
-- A datagram of a transport with an auth-key-file carries 32 bytes after its protocol bytes, which
-- the header's datagram length does not count: key id, suite, nonce and an NHPoly1305-AES tag
-- (org.nakcast.transport.auth.AuthTrailer). A datagram exactly 32 bytes longer than its header says
-- shows them as a subtree of their own, "Authentication". The tag is shown, not checked: that takes
-- the key.
--
-- It finds nakcast on any UDP port (a heuristic that checks the magic 'N' 'K') and is also bound
-- to a data port and the control port after it (preference "nakcast.port", default 40456 as in
-- the embedded default config), where even foreign bytes are shown as a bad magic. Where it knows
-- which of the two ports a datagram was sent to (the destination is the preference's port or the
-- one after it), a type that does not belong there is shown as malformed too.
--
-- A topic on two redundant lines sends every datagram on both, so a capture of both NICs holds each
-- one twice. The preference "nakcast.lines" names the lines, each by its data port (the control port
-- is the next one) or by its group: "40456=md-a,40458=md-b" or "239.192.10.1=md-a,239.192.11.1=md-b".
-- A datagram sent to a line's port or group then shows the line (field nakcast.line, and
-- "[md-a]" at the start of the Info column), and a line's ports are bound and judged like the data
-- port's. Empty (the default): no lines, as before.
--
--   wireshark -X lua_script:ops/wireshark/nakcast.lua capture.pcap
--   tshark -X lua_script:ops/wireshark/nakcast.lua -r capture.pcap -Y nakcast
--
-- See ops/wireshark/README.md.

local nakcast = Proto("nakcast", "nakcast reliable multicast")

local MAGIC = 0x4B4E
local CURRENT_VERSION = 3
local HEADER_LENGTH = 24
local DATA_HEADER_LENGTH = HEADER_LENGTH + 8
local FRAME_HEADER_LENGTH = 4
local HEARTBEAT_LENGTH = HEADER_LENGTH + 24
local NAK_HEADER_LENGTH = HEADER_LENGTH + 8
local NAK_RANGE_LENGTH = 16
local UNRECOVERABLE_LENGTH = HEADER_LENGTH + 24
local STATUS_LENGTH = HEADER_LENGTH + 8
-- The authentication trailer after the protocol bytes (AuthTrailer): key id, suite, reserved,
-- nonce (base, counter), tag.
local TRAILER_LENGTH = 32
local TAG_LENGTH = 16
local SUITE_NH_POLY1305_AES = 3
local SUITE_AES_CTR_NH_POLY1305_AES = 4
local ZERO, MINUS_ONE = Int64(0), Int64(-1)
-- The most datagrams one NAK may ask for, in all its ranges (NakFlyweight.MAX_DATAGRAMS_ASKED).
local MAX_DATAGRAMS_ASKED = Int64(256)
local FRAME_BEGIN = 0x80
local FRAME_END = 0x40
local AGE_CLASS_MASK = 0x3F
-- The DATA and RETRANSMIT flag of a datagram whose publisher asks each receiver that reports STATUS
-- for one once its position has passed it (flow control min, every quarter window).
local STATUS_WANTED_FLAG = 0x40
-- The HEARTBEAT flag of a stream its publisher closed: the header's sequence is its last datagram.
local END_OF_STREAM_FLAG = 0x01
local AGE_UNIT_NS = 1024
-- The highest age class an int64 age in nanoseconds can have (DataFlyweight.ageClassOf).
local HIGHEST_AGE_CLASS = 53

local DATA, RETRANSMIT, HEARTBEAT, NAK, UNRECOVERABLE, STATUS = 1, 2, 3, 4, 5, 6
local type_names = {
    [DATA] = "DATA",
    [RETRANSMIT] = "RETRANSMIT",
    [HEARTBEAT] = "HEARTBEAT",
    [NAK] = "NAK",
    [UNRECOVERABLE] = "UNRECOVERABLE",
    [STATUS] = "STATUS",
}

local f = {
    magic = ProtoField.uint16("nakcast.magic", "Magic", base.HEX),
    version = ProtoField.uint8("nakcast.version", "Version", base.DEC),
    type = ProtoField.uint8("nakcast.type", "Type", base.DEC, type_names),
    flags = ProtoField.uint16("nakcast.flags", "Flags", base.HEX),
    age_class = ProtoField.uint16("nakcast.data.age_class", "Session age class", base.DEC, nil, AGE_CLASS_MASK),
    end_of_stream = ProtoField.bool("nakcast.heartbeat.end_of_stream", "End of stream", 16, nil,
        END_OF_STREAM_FLAG),
    status_wanted = ProtoField.bool("nakcast.data.status_wanted", "STATUS wanted once passed", 16, nil,
        STATUS_WANTED_FLAG),
    length = ProtoField.uint16("nakcast.length", "Datagram length", base.DEC),
    line = ProtoField.string("nakcast.line", "Line (by destination port or group, preference nakcast.lines)"),
    session_id = ProtoField.int32("nakcast.session_id", "Publisher session id", base.DEC),
    topic_id = ProtoField.int32("nakcast.topic_id", "Topic id", base.DEC),
    sequence = ProtoField.int64("nakcast.sequence", "Sequence", base.DEC),

    completed_messages = ProtoField.int64("nakcast.data.completed_messages",
        "Messages completed before this datagram", base.DEC),
    frame_count = ProtoField.uint32("nakcast.data.frame_count", "Message frames", base.DEC),
    messages_ended = ProtoField.uint32("nakcast.data.messages_ended",
        "Messages that end in this datagram", base.DEC),
    frame = ProtoField.none("nakcast.frame", "Message frame"),
    frame_length = ProtoField.uint16("nakcast.frame.length", "Fragment length", base.DEC),
    frame_flags = ProtoField.uint8("nakcast.frame.flags", "Frame flags", base.HEX),
    frame_begin = ProtoField.bool("nakcast.frame.begin", "BEGIN (first fragment)", 8, nil, FRAME_BEGIN),
    frame_end = ProtoField.bool("nakcast.frame.end", "END (last fragment)", 8, nil, FRAME_END),
    frame_reserved = ProtoField.uint8("nakcast.frame.reserved", "Reserved", base.HEX),
    frame_payload = ProtoField.bytes("nakcast.frame.payload", "Fragment bytes"),

    oldest_sequence = ProtoField.int64("nakcast.heartbeat.oldest_sequence",
        "Oldest sequence still in history", base.DEC),
    publisher_id = ProtoField.uint64("nakcast.heartbeat.publisher_id", "Publisher id", base.HEX),
    session_age = ProtoField.int64("nakcast.heartbeat.session_age", "Session age (ns)", base.DEC),

    nak_receiver_id = ProtoField.uint32("nakcast.nak.receiver_id", "Receiver id", base.HEX),
    range_count = ProtoField.int32("nakcast.nak.range_count", "Range count", base.DEC),
    range = ProtoField.none("nakcast.nak.range", "Missing range"),
    range_from = ProtoField.int64("nakcast.nak.range.from", "First missing sequence", base.DEC),
    range_to = ProtoField.int64("nakcast.nak.range.to", "Last missing sequence", base.DEC),
    datagrams_asked = ProtoField.int64("nakcast.nak.datagrams_asked", "Datagrams asked for", base.DEC),

    lost_from = ProtoField.int64("nakcast.unrecoverable.from", "First sequence gone from history", base.DEC),
    lost_to = ProtoField.int64("nakcast.unrecoverable.to", "Last sequence gone from history", base.DEC),
    first_message_after = ProtoField.int64("nakcast.unrecoverable.first_message_after",
        "Index of the first whole message after the range", base.DEC),

    status_receiver_id = ProtoField.uint32("nakcast.status.receiver_id", "Receiver id", base.HEX),
    status_reserved = ProtoField.uint32("nakcast.status.reserved", "Reserved", base.HEX),

    auth = ProtoField.none("nakcast.auth", "Authentication"),
    auth_key_id = ProtoField.uint8("nakcast.auth.key_id", "Key id", base.DEC),
    auth_suite = ProtoField.uint8("nakcast.auth.suite", "Suite", base.DEC,
        { [SUITE_NH_POLY1305_AES] = "NHPoly1305-AES",
          [SUITE_AES_CTR_NH_POLY1305_AES] = "AES-CTR, NHPoly1305-AES (payload encrypted)" }),
    auth_reserved = ProtoField.uint16("nakcast.auth.reserved", "Reserved", base.HEX),
    auth_nonce_base = ProtoField.uint64("nakcast.auth.nonce_base", "Nonce: sender's base", base.HEX),
    auth_nonce_counter = ProtoField.uint32("nakcast.auth.nonce_counter", "Nonce: sender's counter", base.DEC),
    auth_tag = ProtoField.bytes("nakcast.auth.tag", "Tag (not checked: that takes the key)"),
}
nakcast.fields = f

local function malformed(abbrev, text)
    return ProtoExpert.new("nakcast.malformed." .. abbrev, text, expert.group.MALFORMED, expert.severity.ERROR)
end

local e = {
    too_short = malformed("too_short", "Shorter than the 24-byte header"),
    bad_magic = malformed("bad_magic", "Foreign magic: not a nakcast datagram"),
    bad_version = malformed("bad_version", "Unsupported protocol version (this dissector reads version 3)"),
    unknown_type = malformed("unknown_type", "Unknown type code"),
    bad_flags = malformed("bad_flags", "Undefined header flags set"),
    length_mismatch = malformed("length_mismatch", "Length disagrees with the bytes received or the type"),
    bad_topic = malformed("bad_topic", "Topic id outside 1..2^31-1"),
    bad_sequence = malformed("bad_sequence", "Sequence, count or range that cannot occur"),
    bad_frames = malformed("bad_frames", "Message frames overrun the datagram or break the fragment rules"),
    wrong_port = malformed("wrong_port", "A type that does not belong on this port"),
    nak_too_wide = malformed("nak_too_wide", "A NAK asking for more than 256 datagrams in all its ranges"),
}
nakcast.experts = e

nakcast.prefs.port = Pref.uint("Data port", 40456,
    "The transport's data port; the control port (NAK, STATUS) is the next one. 0: heuristic only")
nakcast.prefs.lines = Pref.string("Lines", "",
    "Redundant lines, each named by its data port (its control port is the next one) or by its group,"
    .. " comma-separated: 40456=md-a,40458=md-b or 239.192.10.1=md-a,239.192.11.1=md-b. Empty: no lines")

-- The lines the preference names: by destination port ({name, kind}), and by destination group (name).
local line_of_port = {}
local line_of_group = {}

-- Reads the lines preference; an entry that is not KEY=NAME is left out.
local function parse_lines(text)
    line_of_port = {}
    line_of_group = {}
    for entry in string.gmatch(text, "[^,%s]+") do
        local key, name = string.match(entry, "^([^=]+)=(.+)$")
        local port = key and tonumber(key)
        if port and port > 0 and port < 65535 then
            line_of_port[port] = { name = name, kind = "data" }
            line_of_port[port + 1] = { name = name, kind = "control" }
        elseif key then
            line_of_group[key] = name
        end
    end
end

-- The line a datagram was sent on, by its destination port, else its group: name and the port's
-- kind ("data", "control", or nil when known by group), or nil.
local function line_of(pinfo)
    local by_port = line_of_port[pinfo.dst_port]
    if by_port then
        return by_port.name, by_port.kind
    end
    return line_of_group[tostring(pinfo.dst)], nil
end

local function int64_at(tvb, offset)
    return tvb(offset, 8):le_int64()
end

local units = {
    { 365.25 * 86400e9, "y" }, { 86400e9, "d" }, { 3600e9, "h" }, { 60e9, "min" },
    { 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" },
}

-- The unit of a duration in nanoseconds: the largest it reaches, or ns.
local function unit_of(ns)
    for _, unit in ipairs(units) do
        if ns >= unit[1] then
            return unit[1], unit[2]
        end
    end
    return 1, "ns"
end

-- A duration in nanoseconds in words: "1.5 ms".
local function duration(ns)
    local size, name = unit_of(ns)
    return string.format("%.1f %s", ns / size, name)
end

-- The session age class a DATA or RETRANSMIT carries in its flags.
local function age_class_of(tvb)
    return bit.band(tvb(4, 2):le_uint(), AGE_CLASS_MASK)
end

-- The ages a session of an age class has, in words: class 13 is "4.2..8.4 ms" (DataFlyweight):
-- at least 2^(class-1) and less than 2^class units of 1,024 ns, class 0 less than one unit.
local function age_range(age_class)
    if age_class > HIGHEST_AGE_CLASS then
        return "beyond any age in int64 nanoseconds"
    end
    local below = 2 ^ age_class * AGE_UNIT_NS
    local least = age_class == 0 and 0 or below / 2
    local size, name = unit_of(below)
    return string.format("%.1f..%.1f %s", least / size, below / size, name)
end

-- The port the datagram was sent to, when a preference names it: "data", "control", or nil.
local function port_kind(pinfo)
    local port = nakcast.prefs.port
    local by_line = line_of_port[pinfo.dst_port]
    if by_line then
        return by_line.kind
    elseif port == 0 then
        return nil
    elseif pinfo.dst_port == port then
        return "data"
    elseif pinfo.dst_port == port + 1 then
        return "control"
    end
    return nil
end

-- Adds the message frames of a DATA or RETRANSMIT datagram; answers frames and messages ended.
local function add_frames(tvb, pinfo, tree, first, finish)
    local frames, ended = 0, 0
    local offset = first
    while offset < finish do
        if finish - offset < FRAME_HEADER_LENGTH then
            tree:add_proto_expert_info(e.bad_frames, "Frame header cut off at offset " .. offset)
            break
        end
        local length = tvb(offset, 2):le_uint()
        local flags = tvb(offset + 2, 1):uint()
        local next_offset = offset + FRAME_HEADER_LENGTH + length
        local shown = math.min(next_offset, finish) - offset
        local frame = tree:add(f.frame, tvb(offset, shown))
        frame:add_le(f.frame_length, tvb(offset, 2))
        local flags_item = frame:add(f.frame_flags, tvb(offset + 2, 1))
        flags_item:add(f.frame_begin, tvb(offset + 2, 1))
        flags_item:add(f.frame_end, tvb(offset + 2, 1))
        frame:add(f.frame_reserved, tvb(offset + 3, 1))
        if length > 0 and next_offset <= finish then
            frame:add(f.frame_payload, tvb(offset + FRAME_HEADER_LENGTH, length))
        end
        local kind = (flags == FRAME_BEGIN + FRAME_END) and "whole message"
            or (flags == FRAME_BEGIN) and "first fragment"
            or (flags == FRAME_END) and "last fragment" or "middle fragment"
        frame:append_text(string.format(" %d: %s, %d bytes", frames, kind, length))
        frames = frames + 1
        if bit.band(flags, FRAME_END) ~= 0 then
            ended = ended + 1
        end
        if bit.band(flags, bit.bnot(FRAME_BEGIN + FRAME_END)) ~= 0 or tvb(offset + 3, 1):uint() ~= 0 then
            frame:add_proto_expert_info(e.bad_frames, "Undefined frame flags or reserved byte set")
        elseif next_offset > finish then
            frame:add_proto_expert_info(e.bad_frames, "Fragment overruns the datagram")
        elseif bit.band(flags, FRAME_BEGIN) == 0 and offset ~= first then
            frame:add_proto_expert_info(e.bad_frames, "Only the first frame may continue an earlier message")
        elseif bit.band(flags, FRAME_END) == 0 and next_offset ~= finish then
            frame:add_proto_expert_info(e.bad_frames, "Only the last frame may leave its message unfinished")
        end
        offset = next_offset
    end
    return frames, ended
end

local function dissect_data(tvb, pinfo, tree, length)
    if length < DATA_HEADER_LENGTH + FRAME_HEADER_LENGTH then
        tree:add_proto_expert_info(e.length_mismatch, "DATA needs at least 36 bytes")
        return ""
    end
    local completed = tree:add_le(f.completed_messages, tvb(HEADER_LENGTH, 8))
    if int64_at(tvb, HEADER_LENGTH) < ZERO or int64_at(tvb, 16) < ZERO then
        completed:add_proto_expert_info(e.bad_sequence, "Negative sequence or message count")
    end
    local frames, ended = add_frames(tvb, pinfo, tree, DATA_HEADER_LENGTH, length)
    tree:add(f.frame_count, frames):set_generated()
    tree:add(f.messages_ended, ended):set_generated()
    local wanted = bit.band(tvb(4, 2):le_uint(), STATUS_WANTED_FLAG) ~= 0 and " status-wanted" or ""
    return string.format(" frames=%d age=%s%s", frames, age_range(age_class_of(tvb)), wanted)
end

local function dissect_heartbeat(tvb, pinfo, tree, length)
    if length ~= HEARTBEAT_LENGTH then
        tree:add_proto_expert_info(e.length_mismatch, "HEARTBEAT is 48 bytes")
        return ""
    end
    local oldest_item = tree:add_le(f.oldest_sequence, tvb(HEADER_LENGTH, 8))
    tree:add_le(f.publisher_id, tvb(HEADER_LENGTH + 8, 8))
    local age_item = tree:add_le(f.session_age, tvb(HEADER_LENGTH + 16, 8))
    local highest, oldest = int64_at(tvb, 16), int64_at(tvb, HEADER_LENGTH)
    if highest < MINUS_ONE or oldest < ZERO or oldest > highest + 1 then
        oldest_item:add_proto_expert_info(e.bad_sequence, "Oldest must lie in 0..highest + 1")
    end
    local age = int64_at(tvb, HEADER_LENGTH + 16)
    if age < ZERO then
        age_item:add_proto_expert_info(e.bad_sequence, "Negative session age")
        return string.format(" highest=%s oldest=%s age=%s ns", tostring(highest), tostring(oldest), tostring(age))
    end
    local age_words = duration(age:tonumber())
    age_item:append_text(" (" .. age_words .. ")")
    local ended = bit.band(tvb(4, 2):le_uint(), END_OF_STREAM_FLAG) ~= 0 and " END" or ""
    return string.format(" highest=%s oldest=%s age=%s%s", tostring(highest), tostring(oldest), age_words, ended)
end

local function dissect_nak(tvb, pinfo, tree, length)
    if length < NAK_HEADER_LENGTH then
        tree:add_proto_expert_info(e.length_mismatch, "NAK needs at least 32 bytes")
        return ""
    end
    tree:add_le(f.nak_receiver_id, tvb(HEADER_LENGTH, 4))
    local count_item = tree:add_le(f.range_count, tvb(HEADER_LENGTH + 4, 4))
    local count = tvb(HEADER_LENGTH + 4, 4):le_int()
    local room = math.floor((length - NAK_HEADER_LENGTH) / NAK_RANGE_LENGTH)
    if count < 1 or count ~= room or length ~= NAK_HEADER_LENGTH + room * NAK_RANGE_LENGTH then
        count_item:add_proto_expert_info(e.length_mismatch,
            string.format("Range count %d, room for %d ranges", count, room))
    end
    local shown = {}
    local previous_to
    local asked = ZERO
    for i = 0, math.min(count, room) - 1 do
        local offset = NAK_HEADER_LENGTH + i * NAK_RANGE_LENGTH
        local from, to = int64_at(tvb, offset), int64_at(tvb, offset + 8)
        local range = tree:add(f.range, tvb(offset, NAK_RANGE_LENGTH))
        range:append_text(string.format(" %d: %s..%s", i, tostring(from), tostring(to)))
        range:add_le(f.range_from, tvb(offset, 8))
        range:add_le(f.range_to, tvb(offset + 8, 8))
        if to < from or (previous_to ~= nil and from <= previous_to) or from < ZERO then
            range:add_proto_expert_info(e.bad_sequence, "Ranges must be ascending, disjoint and not backwards")
        end
        previous_to = to
        asked = asked + (to - from) + 1
        shown[#shown + 1] = tostring(from) .. ".." .. tostring(to)
    end
    local asked_item = tree:add(f.datagrams_asked, tvb(HEADER_LENGTH + 4, 4), asked)
    asked_item:set_generated()
    if asked > MAX_DATAGRAMS_ASKED or asked <= ZERO then
        asked_item:add_proto_expert_info(e.nak_too_wide)
    end
    return " ranges=" .. table.concat(shown, ",")
end

local function dissect_unrecoverable(tvb, pinfo, tree, length)
    if length ~= UNRECOVERABLE_LENGTH then
        tree:add_proto_expert_info(e.length_mismatch, "UNRECOVERABLE is 48 bytes")
        return ""
    end
    local from_item = tree:add_le(f.lost_from, tvb(HEADER_LENGTH, 8))
    tree:add_le(f.lost_to, tvb(HEADER_LENGTH + 8, 8))
    tree:add_le(f.first_message_after, tvb(HEADER_LENGTH + 16, 8))
    local from, to = int64_at(tvb, HEADER_LENGTH), int64_at(tvb, HEADER_LENGTH + 8)
    if from < ZERO or to < from or int64_at(tvb, HEADER_LENGTH + 16) < ZERO then
        from_item:add_proto_expert_info(e.bad_sequence, "Range backwards or negative")
    end
    return string.format(" lost=%s..%s", tostring(from), tostring(to))
end

local function dissect_status(tvb, pinfo, tree, length)
    if length ~= STATUS_LENGTH then
        tree:add_proto_expert_info(e.length_mismatch, "STATUS is 32 bytes")
        return ""
    end
    tree:add_le(f.status_receiver_id, tvb(HEADER_LENGTH, 4))
    tree:add_le(f.status_reserved, tvb(HEADER_LENGTH + 4, 4))
    return ""
end

local body_of = {
    [DATA] = dissect_data,
    [RETRANSMIT] = dissect_data,
    [HEARTBEAT] = dissect_heartbeat,
    [NAK] = dissect_nak,
    [UNRECOVERABLE] = dissect_unrecoverable,
    [STATUS] = dissect_status,
}

-- The protocol bytes of a datagram: all of it, or all but the authentication trailer when the
-- datagram is a nakcast header's datagram length (which never counts the trailer) plus the trailer.
local function protocol_length_of(tvb, length)
    if length >= HEADER_LENGTH + TRAILER_LENGTH and tvb(0, 2):le_uint() == MAGIC
        and tvb(2, 1):uint() == CURRENT_VERSION and tvb(6, 2):le_uint() + TRAILER_LENGTH == length then
        return length - TRAILER_LENGTH
    end
    return length
end

-- Adds the authentication trailer at offset as a subtree of its own; answers the Info column's part.
local function dissect_trailer(tvb, tree, offset)
    local trailer = tree:add(f.auth, tvb(offset, TRAILER_LENGTH))
    trailer:add(f.auth_key_id, tvb(offset, 1))
    trailer:add(f.auth_suite, tvb(offset + 1, 1))
    trailer:add_le(f.auth_reserved, tvb(offset + 2, 2))
    trailer:add_le(f.auth_nonce_base, tvb(offset + 4, 8))
    trailer:add_le(f.auth_nonce_counter, tvb(offset + 12, 4))
    trailer:add(f.auth_tag, tvb(offset + TRAILER_LENGTH - TAG_LENGTH, TAG_LENGTH))
    local key_id = tvb(offset, 1):uint()
    trailer:append_text(string.format(": key %d (tag not checked)", key_id))
    return string.format(" key=%d", key_id)
end

-- Checks and adds the common header of a datagram of length protocol bytes; answers the type's
-- body dissector, or nil to stop there.
local function dissect_header(tvb, pinfo, tree, length)
    local magic_item = tree:add_le(f.magic, tvb(0, 2))
    if tvb(0, 2):le_uint() ~= MAGIC then
        magic_item:add_proto_expert_info(e.bad_magic)
        return nil
    end
    local version_item = tree:add(f.version, tvb(2, 1))
    local type_item = tree:add(f.type, tvb(3, 1))
    local flags_item = tree:add_le(f.flags, tvb(4, 2))
    local length_item = tree:add_le(f.length, tvb(6, 2))
    tree:add_le(f.session_id, tvb(8, 4))
    local topic_item = tree:add_le(f.topic_id, tvb(12, 4))
    tree:add_le(f.sequence, tvb(16, 8))
    if tvb(2, 1):uint() ~= CURRENT_VERSION then
        version_item:add_proto_expert_info(e.bad_version)
        return nil
    end
    local type_code = tvb(3, 1):uint()
    local body = body_of[type_code]
    if body == nil then
        type_item:add_proto_expert_info(e.unknown_type)
    end
    local allowed_flags = 0
    if type_code == DATA or type_code == RETRANSMIT then
        allowed_flags = AGE_CLASS_MASK + STATUS_WANTED_FLAG
        flags_item:add_le(f.age_class, tvb(4, 2))
            :append_text(string.format(" (%s old when first sent)", age_range(age_class_of(tvb))))
        flags_item:add_le(f.status_wanted, tvb(4, 2))
    elseif type_code == HEARTBEAT then
        allowed_flags = END_OF_STREAM_FLAG
        flags_item:add_le(f.end_of_stream, tvb(4, 2))
    end
    if bit.band(tvb(4, 2):le_uint(), bit.bnot(allowed_flags)) ~= 0 then
        flags_item:add_proto_expert_info(e.bad_flags)
    end
    local kind = port_kind(pinfo)
    if body ~= nil and kind ~= nil and (kind == "control") ~= (type_code == NAK or type_code == STATUS) then
        type_item:add_proto_expert_info(e.wrong_port,
            string.format("%s on the %s port %d", type_names[type_code], kind, pinfo.dst_port))
    end
    if tvb(6, 2):le_uint() ~= length then
        length_item:add_proto_expert_info(e.length_mismatch,
            string.format("Length field %d, datagram %d bytes", tvb(6, 2):le_uint(), length))
        return nil
    end
    if tvb(12, 4):le_int() <= 0 then
        topic_item:add_proto_expert_info(e.bad_topic)
    end
    return body
end

function nakcast.dissector(tvb, pinfo, tree)
    local length = tvb:reported_length_remaining()
    if length == 0 then
        return 0
    end
    pinfo.cols.protocol = nakcast.name
    local root = tree:add(nakcast, tvb(), "nakcast")
    if length < HEADER_LENGTH then
        root:add_proto_expert_info(e.too_short,
            string.format("%d bytes, the header alone is %d", length, HEADER_LENGTH))
        pinfo.cols.info = "nakcast: too short"
        return length
    end
    local protocol_length = protocol_length_of(tvb, length)
    local body = dissect_header(tvb, pinfo, root, protocol_length)
    local type_code = tvb(3, 1):uint()
    local name = type_names[type_code] or string.format("type %d", type_code)
    local info = string.format("%s topic=%d session=%d seq=%s", name, tvb(12, 4):le_int(), tvb(8, 4):le_int(),
        tostring(int64_at(tvb, 16)))
    if body ~= nil then
        info = info .. body(tvb, pinfo, root, protocol_length)
    elseif tvb(0, 2):le_uint() ~= MAGIC then
        info = "not nakcast (foreign magic)"
    end
    if protocol_length < length then
        info = info .. dissect_trailer(tvb, root, protocol_length)
    end
    local line = line_of(pinfo)
    if line then
        root:add(f.line, line):set_generated()
        info = "[" .. line .. "] " .. info
    end
    root:append_text(", " .. info)
    pinfo.cols.info = info
    return length
end

local function heuristic(tvb, pinfo, tree)
    if tvb:len() < 4 or tvb(0, 2):le_uint() ~= MAGIC then
        return false
    end
    nakcast.dissector(tvb, pinfo, tree)
    return true
end
nakcast:register_heuristic("udp", heuristic)

local udp_port = DissectorTable.get("udp.port")
local bound_ports = {}

-- Binds the data port of the preference and every line's ports, and no other.
local function bind_ports()
    for port in pairs(bound_ports) do
        udp_port:remove(port, nakcast)
    end
    bound_ports = {}
    local port = nakcast.prefs.port
    if port ~= 0 then
        bound_ports[port] = true
        bound_ports[port + 1] = true
    end
    for line_port in pairs(line_of_port) do
        bound_ports[line_port] = true
    end
    for bound in pairs(bound_ports) do
        udp_port:add(bound, nakcast)
    end
end

local function apply_prefs()
    parse_lines(nakcast.prefs.lines)
    bind_ports()
end

nakcast.prefs_changed = apply_prefs
apply_prefs()
