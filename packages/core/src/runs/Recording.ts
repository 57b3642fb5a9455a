/** The media type of every recording. */
export const recordingContentType = "audio/wav"
