import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Debian's `chromium`, headless, driven through its DevTools protocol over the pipe it opens
/// with `--remote-debugging-pipe` (file descriptors 3 and 4, one JSON message per
/// NUL-terminated frame): no websocket, no driver, no package beyond the browser itself.
/// One page (``Page``) per ``open(_:)``; every call waits for its answer, bounded by
/// ``answerTimeout`` so that a hung browser fails the test instead of hanging it.
final class HeadlessChromium {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The browser on `PATH` (`LECTERN_CHROMIUM` overrides), nil when none is installed.
    static let executable: String? = {
        if let chosen = ProcessInfo.processInfo.environment["LECTERN_CHROMIUM"], !chosen.isEmpty { return chosen }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["chromium", "chromium-browser"] {
            for folder in path.split(separator: ":") where access("\(folder)/\(name)", X_OK) == 0 {
                return "\(folder)/\(name)"
            }
        }
        return nil
    }()

    /// The longest wait for one answer of the browser (a loaded CI machine is slow, never this slow).
    let answerTimeout: Int32 = 120_000
    private let processID: pid_t
    private let toBrowser: Int32, fromBrowser: Int32
    private var pending: [UInt8] = []
    private var nextID = 0
    private let profile: String

    init(windowWidth: Int = 1200, windowHeight: Int = 900) throws {
        guard let executable = Self.executable else { throw Failure(description: "chromium is not installed") }
        profile = Fixtures.temporaryDirectory("chromium-profile")
        var commands: [Int32] = [0, 0], answers: [Int32] = [0, 0]
        guard pipe(&commands) == 0, pipe(&answers) == 0 else { throw Failure(description: "pipe: \(errno)") }
        for descriptor in commands + answers { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        // Above 4, so that dup2 onto 3 and 4 never finds its source already there (a no-op
        // that would leave close-on-exec set).
        let childReads = fcntl(commands[0], F_DUPFD_CLOEXEC, 10), childWrites = fcntl(answers[1], F_DUPFD_CLOEXEC, 10)
        Glibc.close(commands[0]); Glibc.close(answers[1])
        toBrowser = commands[1]
        fromBrowser = answers[0]

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, childReads, 3)
        posix_spawn_file_actions_adddup2(&actions, childWrites, 4)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        // The browser's own complaints (no D-Bus, no GPU) go to a file beside its profile.
        posix_spawn_file_actions_addopen(&actions, 1, profile + "/browser.log", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        let arguments = [
            executable, "--headless", "--remote-debugging-pipe", "--user-data-dir=\(profile)",
            // The sandbox needs user namespaces, absent in containers and refused to root.
            "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--mute-audio", "--hide-scrollbars", "--window-size=\(windowWidth),\(windowHeight)",
            "about:blank",
        ]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var envp: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        // Its own process group, so that its helper processes can be ended together.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, &attributes, &argv, &envp)
        Glibc.close(childReads); Glibc.close(childWrites)
        guard spawned == 0 else {
            Glibc.close(toBrowser); Glibc.close(fromBrowser)
            throw Failure(description: "cannot start \(executable): error \(spawned)")
        }
        processID = child
    }

    private var closed = false

    /// Closes the browser and reaps it; a browser that does not end within a minute is
    /// killed with every process of its group (renderers, zygote), so none outlives the test.
    func close() {
        guard !closed else { return }
        closed = true
        _ = try? send("Browser.close")
        Glibc.close(toBrowser)
        Glibc.close(fromBrowser)
        var status: Int32 = 0
        for _ in 0..<3000 where waitpid(processID, &status, WNOHANG) == 0 {
            usleep(20_000)
        }
        kill(-processID, SIGKILL)
        waitpid(processID, &status, WNOHANG)
    }

    deinit { close() }

    /// The browser's log (what it said on stderr), for failure messages.
    var log: String {
        (try? String(contentsOfFile: profile + "/browser.log", encoding: .utf8)) ?? ""
    }

    /// Sends one command and returns its `result`; an `error` answer throws.
    @discardableResult
    func send(_ method: String, _ parameters: [String: Any] = [:], session: String? = nil) throws -> [String: Any] {
        nextID += 1
        var message: [String: Any] = ["id": nextID, "method": method, "params": parameters]
        if let session { message["sessionId"] = session }
        var frame = [UInt8](try JSONSerialization.data(withJSONObject: message))
        frame.append(0)
        var written = 0
        while written < frame.count {
            let count = frame[written...].withUnsafeBytes { write(toBrowser, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Failure(description: "the browser closed its pipe (\(method)): \(log)") }
            written += count
        }
        while true {
            let answer = try readMessage(waitingFor: method)
            guard answer["id"] as? Int == nextID else { continue }  // an event, or a late answer
            if let error = answer["error"] as? [String: Any] {
                throw Failure(description: "\(method): \(error["message"] ?? error)")
            }
            return answer["result"] as? [String: Any] ?? [:]
        }
    }

    private func readMessage(waitingFor method: String) throws -> [String: Any] {
        while true {
            if let end = pending.firstIndex(of: 0) {
                let body = Data(pending[..<end])
                pending.removeSubrange(...end)
                return try JSONSerialization.jsonObject(with: body) as? [String: Any] ?? [:]
            }
            var descriptor = pollfd(fd: fromBrowser, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, answerTimeout)
            guard ready > 0 else { throw Failure(description: "no answer from the browser to \(method): \(log)") }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            let count = buffer.withUnsafeMutableBytes { read(fromBrowser, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Failure(description: "the browser ended (\(method)): \(log)") }
            pending += buffer[..<count]
        }
    }

    /// Opens `url` in a new page and attaches to it.
    func open(_ url: String) throws -> Page {
        let target = try send("Target.createTarget", ["url": "about:blank"])
        guard let targetID = target["targetId"] as? String else { throw Failure(description: "no target: \(target)") }
        let attached = try send("Target.attachToTarget", ["targetId": targetID, "flatten": true])
        guard let session = attached["sessionId"] as? String else { throw Failure(description: "no session: \(attached)") }
        let page = Page(browser: self, session: session)
        try page.send("Page.enable")
        try page.send("Runtime.enable")
        try page.navigate(url)
        return page
    }

    /// One page of the browser, through its DevTools session.
    struct Page {
        let browser: HeadlessChromium
        let session: String

        @discardableResult
        func send(_ method: String, _ parameters: [String: Any] = [:]) throws -> [String: Any] {
            try browser.send(method, parameters, session: session)
        }

        func navigate(_ url: String) throws {
            let answer = try send("Page.navigate", ["url": url])
            if let error = answer["errorText"] as? String { throw Failure(description: "cannot open \(url): \(error)") }
        }

        /// The value of a JavaScript expression in the page (promises awaited), as JSON gives it.
        func evaluate(_ expression: String) throws -> Any? {
            let answer = try send("Runtime.evaluate", [
                "expression": expression, "returnByValue": true, "awaitPromise": true, "userGesture": true,
            ])
            if let exception = answer["exceptionDetails"] as? [String: Any] {
                let text = (exception["exception"] as? [String: Any])?["description"] ?? exception["text"] ?? exception
                throw Failure(description: "\(expression): \(text)")
            }
            return (answer["result"] as? [String: Any])?["value"]
        }

        func string(_ expression: String) throws -> String {
            try evaluate(expression) as? String ?? ""
        }

        /// Waits until `expression` is true in the page (re-evaluated at each animation frame
        /// of the browser, up to ``HeadlessChromium/answerTimeout``): a state, never a time.
        func waitUntil(_ expression: String, _ what: String) throws {
            let script = """
                new Promise((resolve) => {
                  const deadline = Date.now() + \(browser.answerTimeout - 5_000);
                  const check = () => {
                    let value = false;
                    try { value = !!(\(expression)); } catch (error) { value = false; }
                    if (value || Date.now() > deadline) { resolve(value); } else { setTimeout(check, 20); }
                  };
                  check();
                })
                """
            // A navigation of the page during the wait destroys the context the promise
            // lives in: the wait starts again in the new document.
            var reached = false
            for attempt in 1...10 {
                do {
                    reached = try evaluate(script) as? Bool == true
                    break
                } catch let failure as Failure where attempt < 10 && failure.description.contains("context") {
                    continue
                }
            }
            guard reached else {
                throw Failure(description: "the page never reached: \(what) (\(expression))")
            }
        }

        /// Waits until `expression` is true in a document whose own scripts and timers never run
        /// (a book's document under the sandbox policy): ``waitUntil(_:_:)``'s promise would wait
        /// on a timer there, so the expression is evaluated again from here until it holds, or
        /// until ``HeadlessChromium/answerTimeout`` has passed.
        func pollUntil(_ expression: String, _ what: String) throws {
            let deadline = ContinuousClock.now + .milliseconds(Int(browser.answerTimeout))
            while (try? evaluate("(() => { try { return !!(\(expression)); } catch (error) { return false; } })()") as? Bool) != true {
                guard ContinuousClock.now < deadline else {
                    throw Failure(description: "the page never reached: \(what) (\(expression))")
                }
                usleep(20_000)
            }
        }

        /// A real mouse click (press and release) at the centre of the element `selector`,
        /// scrolled into view first.
        func click(_ selector: String) throws {
            let box = try evaluate("""
                (() => { const element = document.querySelector(\(Self.literal(selector)));
                         element.scrollIntoView({ block: 'center' });
                         const r = element.getBoundingClientRect();
                         return [r.left + r.width / 2, r.top + r.height / 2]; })()
                """) as? [Double] ?? []
            guard box.count == 2 else { throw Failure(description: "no element \(selector)") }
            for type in ["mousePressed", "mouseReleased"] {
                try send("Input.dispatchMouseEvent", ["type": type, "x": box[0], "y": box[1], "button": "left", "clickCount": 1])
            }
        }

        /// A real double click (a person selecting a word) at `x`, `y` of the page.
        func doubleClick(x: Double, y: Double) throws {
            for count in [1, 2] {
                for type in ["mousePressed", "mouseReleased"] {
                    try send("Input.dispatchMouseEvent", ["type": type, "x": x, "y": y, "button": "left", "clickCount": count])
                }
            }
        }

        /// A key press as a person makes it; `commands` are the editing commands it triggers
        /// (Ctrl+C is `["copy"]`: headless Chromium has no platform key bindings).
        func press(_ key: String, code: String, keyCode: Int, modifiers: Int = 0, commands: [String] = []) throws {
            try send("Input.dispatchKeyEvent", ["type": "rawKeyDown", "key": key, "code": code, "windowsVirtualKeyCode": keyCode,
                                                "modifiers": modifiers, "commands": commands])
            try send("Input.dispatchKeyEvent", ["type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": keyCode,
                                                "modifiers": modifiers])
        }

        /// A PNG screenshot of the area of the element `selector`.
        func screenshot(of selector: String) throws -> Data {
            let box = try evaluate("""
                (() => { const r = document.querySelector(\(Self.literal(selector))).getBoundingClientRect();
                         return [r.left, r.top, r.width, r.height]; })()
                """) as? [Double] ?? []
            guard box.count == 4, box[2] > 0, box[3] > 0 else { throw Failure(description: "\(selector) has no area: \(box)") }
            let answer = try send("Page.captureScreenshot", [
                "format": "png", "clip": ["x": box[0], "y": box[1], "width": box[2], "height": box[3], "scale": 1],
            ])
            guard let encoded = answer["data"] as? String, let data = Data(base64Encoded: encoded) else {
                throw Failure(description: "no screenshot")
            }
            return data
        }

        /// `text` as a JavaScript string literal.
        static func literal(_ text: String) -> String {
            let data = try? JSONSerialization.data(withJSONObject: [text])
            let array = data.map { String(decoding: $0, as: UTF8.self) } ?? "[\"\"]"
            return String(array.dropFirst().dropLast())
        }
    }
}
