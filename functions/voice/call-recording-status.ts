import { changeCall } from './call-writes';

export interface CallRecordingReport {
  /** The call's CallSid (the callback URL's `callSid`), else the recorded leg's. */
  callSid: string;
  recordingSid: string;
  recordingUrl: string;
  recordingStatus: string;
  recordingDuration?: number;
}

/**
 * Twilio's recording status callback: `completed` puts its length and URL on the call, `absent` or
 * `failed` marks it FAILED; repeated callbacks change nothing more. Another company's call, an
 * unknown one, or another recording than the call's: nothing.
 */
export async function recordCallRecordingStatus(companyId: string, report: CallRecordingReport): Promise<void> {
  const status = report.recordingStatus.toLowerCase();
  if (!/^CA[0-9a-f]{32}$/i.test(report.callSid)) return;
  await changeCall(companyId, report.callSid, (call) => {
    const recording = call.recording;
    if (!recording || (recording.recordingSid !== null && recording.recordingSid !== report.recordingSid)) return call;
    if (recording.status === 'COMPLETED' || recording.status === 'FAILED') return call;
    const base = { ...recording, recordingSid: report.recordingSid };
    if (status === 'completed')
      return {
        ...call,
        recording: {
          ...base,
          status: 'COMPLETED',
          recordingUrl: report.recordingUrl,
          durationSeconds: report.recordingDuration ?? 0,
        },
      };
    if (status === 'absent' || status === 'failed') return { ...call, recording: { ...base, status: 'FAILED' } };
    return { ...call, recording: base };
  });
}
