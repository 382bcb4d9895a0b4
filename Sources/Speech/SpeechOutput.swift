/// Where speech is heard.
public enum SpeechOutput {
    /// A sink for the sound device (`null`: none, in real time).
    public static func sink(null: Bool, sampleRate: Int) throws(SpeechError) -> any PCMSink {
        null ? NullPCMSink(sampleRate: sampleRate) : try MPVPCMSink(sampleRate: sampleRate)
    }
}
