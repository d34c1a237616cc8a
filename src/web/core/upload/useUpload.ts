import { useCallback, useEffect, useRef, useState } from 'react';
import { uploadFile, uploadProblem, type UploadOptions, type UploadedFile } from './upload';

export type UploadStatus = 'idle' | 'uploading' | 'done' | 'error';

export interface UploadState<T> {
  status: UploadStatus;
  percent: number;
  /** The name of the file being (or last) uploaded. */
  name?: string;
  result?: T;
  error?: string;
}

export type UseUploadOptions = Omit<UploadOptions, 'onProgress' | 'signal'> & {
  /** Checked before sending; defaults to the file API's types and size limit. */
  check?: (file: File) => string | undefined;
};

/**
 * One upload at a time with its progress (spec S7.F4b). An upload still running when the component
 * goes away is cancelled.
 */
export function useUpload<T = UploadedFile>(options: UseUploadOptions = {}) {
  const [state, setState] = useState<UploadState<T>>({ status: 'idle', percent: 0 });
  const controller = useRef<AbortController | undefined>(undefined);
  const optionsRef = useRef(options);
  optionsRef.current = options;

  useEffect(() => () => controller.current?.abort(), []);

  const upload = useCallback(async (file: File, extra: Omit<UploadOptions, 'onProgress' | 'signal'> = {}): Promise<T | undefined> => {
    const { check = uploadProblem, ...opts } = optionsRef.current;
    const problem = check(file);
    if (problem) {
      setState({ status: 'error', percent: 0, name: file.name, error: problem });
      return undefined;
    }
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setState({ status: 'uploading', percent: 0, name: file.name });
    try {
      const result = await uploadFile<T>(file, file.name, {
        ...opts,
        ...extra,
        signal: abort.signal,
        onProgress: (percent) => {
          if (!abort.signal.aborted) setState((s) => (s.status === 'uploading' ? { ...s, percent } : s));
        },
      });
      if (!abort.signal.aborted) setState({ status: 'done', percent: 100, name: file.name, result });
      return result;
    } catch (error) {
      if (!abort.signal.aborted) {
        const message = (error as { response?: { data?: { message?: string } } }).response?.data?.message ?? '上传失败';
        setState((s) => ({ status: 'error', percent: s.percent, name: file.name, error: message }));
      }
      return undefined;
    }
  }, []);

  const reset = useCallback(() => {
    controller.current?.abort();
    setState({ status: 'idle', percent: 0 });
  }, []);

  return { ...state, uploading: state.status === 'uploading', upload, reset };
}
