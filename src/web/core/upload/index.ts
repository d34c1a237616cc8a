export { UploadButton, type UploadButtonProps } from './UploadButton';
export { MobileUploadButton } from './MobileUploadButton';
export { UploadProgress } from './UploadProgress';
export { useUpload, type UploadState, type UploadStatus } from './useUpload';
export { ACCEPT_ALL, progressPercent, uploadFile, uploadProblem, type UploadOptions, type UploadedFile } from './upload';
