import Dispatch

extension SpeechPipeline: SentenceSpeaker {
    /// The events heard, pushed from a Dispatch thread that sleeps until the next word or
    /// sentence is due (from the samples between it and what the output played), or until new
    /// audio is queued: nobody wakes in between to ask.
    public var events: AsyncStream<SpeechEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: SpeechEvent.self)
        Thread.detach { [self] in
            while !isStopped {
                for event in poll() {
                    continuation.yield(event)
                    switch event {
                    case .finished, .failed: return continuation.finish()
                    default: break
                    }
                }
                // A position not yet reached by a paused or slow output: looked at again at
                // most every quarter second (the output's clock has no wake-up of its own).
                let seconds = min(0.25, max(0.002, secondsToNextEvent() ?? 0.25))
                _ = wake.wait(timeout: .now() + seconds)
            }
            continuation.finish()
        }
        return stream
    }
}

private enum Thread {
    /// A Dispatch thread of its own: it blocks, so not one of the cooperative pool's.
    static func detach(_ body: @escaping @Sendable () -> Void) {
        DispatchQueue(label: "lectern.speech.events").async(execute: body)
    }
}
