import { Money } from "@voice-agent-platform/core"
import type {
  AgentErrors,
  CallErrors,
  CallEventErrors,
  DoNotCallErrors,
  DownloadLinks,
  E164,
  ImprovementErrors,
  IntegrationErrors,
  IntegrationProvider,
  KnowledgeBaseErrors,
  OrganizationErrors,
  PhoneNumberErrors,
  QuotaErrors,
  RunErrors,
  Runs,
  RuntimeTools,
  Telephony,
  ToolErrors,
  TriggerErrors,
  UsageErrors,
  WebhookErrors
} from "@voice-agent-platform/core"
import {
  Conflict,
  Forbidden,
  NotFound,
  OutsideCallingHours,
  PaymentRequired,
  ServiceUnavailable,
  TooManyRequests,
  ValidationError
} from "@voice-agent-platform/contract/errors/ApiErrors.js"

/** Every typed failure of the core that the API can meet. */
export type CoreError =
  | AgentErrors.AgentNotFound
  | AgentErrors.AgentArchived
  | AgentErrors.AgentToolArchived
  | AgentErrors.InvalidTransferNumber
  | RuntimeTools.RunEndedNoToolCalls
  | RuntimeTools.ToolCallLimitReached
  | RunErrors.RunNotFound
  | RunErrors.RunFileNotAvailable
  | Runs.RunStillLive
  | CallEventErrors.CallAlreadyEnded
  | CallEventErrors.InvalidRecording
  | DownloadLinks.DownloadLinkRefused
  | ImprovementErrors.ImprovementNotFound
  | ImprovementErrors.ImprovementAlreadyDecided
  | IntegrationErrors.IntegrationConnectionNotFound
  | OrganizationErrors.OrganizationNotFound
  | OrganizationErrors.InsufficientBalance
  | PhoneNumberErrors.PhoneNumberNotFound
  | PhoneNumberErrors.NoInventory
  | PhoneNumberErrors.PhoneNumberNotActive
  | PhoneNumberErrors.PhoneNumberExists
  | PhoneNumberErrors.NumberTypeMismatch
  | E164.InvalidPhoneNumber
  | UsageErrors.InvalidReportingPeriod
  | UsageErrors.ReportingPeriodTooLong
  | CallErrors.DoNotCallListed
  | CallErrors.OutsideCallingHours
  | CallErrors.ChannelsBusy
  | Telephony.TelephonyUnavailable
  | TriggerErrors.TriggerNotFound
  | TriggerErrors.TriggerArchived
  | DoNotCallErrors.DoNotCallEntryNotFound
  | ToolErrors.ToolNotFound
  | ToolErrors.ToolArchived
  | ToolErrors.ToolArchivedNotRun
  | IntegrationProvider.IntegrationProviderMissing
  | ToolErrors.CredentialNotFound
  | ToolErrors.CredentialInUse
  | KnowledgeBaseErrors.DocumentNotFound
  | KnowledgeBaseErrors.DocumentTooLarge
  | WebhookErrors.WebhookEndpointNotFound
  | QuotaErrors.QuotaExceeded

type HttpErrorOf<E extends CoreError> = E extends { readonly _tag: infer T }
  ? T extends
      | "AgentNotFound"
      | "RunNotFound"
      | "RunFileNotAvailable"
      | "ImprovementNotFound"
      | "IntegrationConnectionNotFound"
      | "OrganizationNotFound"
      | "PhoneNumberNotFound"
      | "TriggerNotFound"
      | "DoNotCallEntryNotFound"
      | "ToolNotFound"
      | "CredentialNotFound"
      | "DocumentNotFound"
      | "WebhookEndpointNotFound"
    ? NotFound
    : T extends
          | "AgentArchived"
          | "AgentToolArchived"
          | "RunEndedNoToolCalls"
          | "ToolCallLimitReached"
          | "RunStillLive"
          | "CallAlreadyEnded"
          | "ImprovementAlreadyDecided"
          | "NoInventory"
          | "PhoneNumberNotActive"
          | "PhoneNumberExists"
          | "TriggerArchived"
          | "ToolArchived"
          | "ToolArchivedNotRun"
          | "CredentialInUse"
          | "QuotaExceeded"
      ? Conflict
      : T extends "InsufficientBalance"
        ? PaymentRequired
        : T extends
              | "InvalidPhoneNumber"
              | "InvalidTransferNumber"
              | "InvalidReportingPeriod"
              | "ReportingPeriodTooLong"
              | "DocumentTooLarge"
              | "InvalidRecording"
              | "NumberTypeMismatch"
              | "IntegrationProviderMissing"
          ? ValidationError
          : T extends "DoNotCallListed" | "DownloadLinkRefused"
            ? Forbidden
            : T extends "OutsideCallingHours"
              ? OutsideCallingHours
              : T extends "ChannelsBusy"
                ? TooManyRequests
                : T extends "TelephonyUnavailable"
                  ? ServiceUnavailable
                  : never
  : never

/**
 * The one place where core failures become HTTP answers. Core never knows a status code; handlers pipe
 * their effects through `Effect.mapError(CoreErrors.toHttp)`.
 */
export const toHttp = <E extends CoreError>(error: E): HttpErrorOf<E> => {
  const e = error as CoreError
  switch (e._tag) {
    case "AgentNotFound":
    case "RunNotFound":
    case "RunFileNotAvailable":
    case "ImprovementNotFound":
    case "IntegrationConnectionNotFound":
    case "OrganizationNotFound":
    case "PhoneNumberNotFound":
    case "TriggerNotFound":
    case "DoNotCallEntryNotFound":
    case "ToolNotFound":
    case "CredentialNotFound":
    case "DocumentNotFound":
    case "WebhookEndpointNotFound":
      return new NotFound({ detail: e.message }) as HttpErrorOf<E>
    case "AgentArchived":
    case "AgentToolArchived":
    case "RunEndedNoToolCalls":
    case "ToolCallLimitReached":
    case "RunStillLive":
    case "CallAlreadyEnded":
    case "ImprovementAlreadyDecided":
    case "NoInventory":
    case "PhoneNumberNotActive":
    case "PhoneNumberExists":
    case "TriggerArchived":
    case "ToolArchived":
    case "ToolArchivedNotRun":
    case "CredentialInUse":
    case "QuotaExceeded":
      return new Conflict({ detail: e.message }) as HttpErrorOf<E>
    case "InsufficientBalance":
      return new PaymentRequired({
        detail: e.message,
        balance_pln: Money.toDecimal(e.balance),
        required_pln: Money.toDecimal(e.required),
        top_up_pln: Money.toDecimal(e.top_up)
      }) as HttpErrorOf<E>
    case "NumberTypeMismatch":
      return new ValidationError({
        detail: [{ loc: ["body", "phone_number_id"], msg: e.message, type: "value_error.number_type" }]
      }) as HttpErrorOf<E>
    case "InvalidPhoneNumber":
      return new ValidationError({
        detail: [{ loc: ["body", "phone_number"], msg: e.message, type: "value_error.phone_number" }]
      }) as HttpErrorOf<E>
    case "InvalidTransferNumber":
      return new ValidationError({
        detail: [
          {
            loc: e.in_configuration
              ? ["body", "workflow_configurations", "transfer_numbers", e.index]
              : ["body", "transfer_numbers", e.index],
            msg: e.message,
            type: "value_error.phone_number"
          }
        ]
      }) as HttpErrorOf<E>
    case "InvalidReportingPeriod":
      return new ValidationError({
        detail: [{ loc: ["query", e.field], msg: e.message, type: "value_error" }]
      }) as HttpErrorOf<E>
    case "ReportingPeriodTooLong":
      return new ValidationError({
        detail: [{ loc: ["query", e.field], msg: e.message, type: "value_error.period_too_long" }]
      }) as HttpErrorOf<E>
    case "DocumentTooLarge":
      return new ValidationError({
        detail: [{ loc: ["body", "file"], msg: e.message, type: "value_error.file_too_large" }]
      }) as HttpErrorOf<E>
    case "IntegrationProviderMissing":
      return new ValidationError({
        detail: [
          { loc: ["path", "tool_uuid"], msg: e.message, type: "value_error.integration_provider_missing" }
        ]
      }) as HttpErrorOf<E>
    case "InvalidRecording":
      return new ValidationError({
        detail: [{ loc: ["body"], msg: e.message, type: "value_error.recording" }]
      }) as HttpErrorOf<E>
    case "DoNotCallListed":
    case "DownloadLinkRefused":
      return new Forbidden({ detail: e.message }) as HttpErrorOf<E>
    case "OutsideCallingHours":
      return OutsideCallingHours.withRetryAfter(
        { code: "outside_calling_hours", message: e.message, retry_at: e.retry_at.toISOString() },
        e.retry_after_seconds
      ) as HttpErrorOf<E>
    case "ChannelsBusy":
      return TooManyRequests.withRetryAfter(e.message, e.retry_after_seconds) as HttpErrorOf<E>
    case "TelephonyUnavailable":
      return new ServiceUnavailable({ detail: e.message }) as HttpErrorOf<E>
  }
}
