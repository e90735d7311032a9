import type { Connection } from 'mongoose';
import { projectModel } from './project.ts';
import { deviceModel } from './device.ts';
import { historyModel } from './history.ts';
import { eventModel } from './event.ts';
import { eventTypeModel } from './event-type.ts';
import { eventCounterModel } from './event-counter.ts';
import { eventTypeDayModel } from './event-type-day.ts';
import { notificationModel } from './notification.ts';
import { templateModel } from './template.ts';
import { segmentModel } from './segment.ts';
import { journeyModel, journeyVersionModel } from './journey.ts';
import { journeyTravellerModel } from './journey-traveller.ts';
import { deliveryResultModel } from './delivery-result.ts';
import { notificationClickModel } from './notification-click.ts';
import { webhookEndpointModel } from './webhook-endpoint.ts';
import { deliveryLogModel } from './delivery-log.ts';
import { inAppMessageModel } from './in-app-message.ts';
import { dailyCountModel } from './daily-count.ts';
import { deviceImportModel } from './device-import.ts';

export function createModels(connection: Connection) {
  return {
    Project: projectModel(connection),
    Device: deviceModel(connection),
    History: historyModel(connection),
    Event: eventModel(connection),
    EventType: eventTypeModel(connection),
    EventCounter: eventCounterModel(connection),
    EventTypeDay: eventTypeDayModel(connection),
    Notification: notificationModel(connection),
    Template: templateModel(connection),
    Segment: segmentModel(connection),
    Journey: journeyModel(connection),
    JourneyVersion: journeyVersionModel(connection),
    JourneyTraveller: journeyTravellerModel(connection),
    DeliveryResult: deliveryResultModel(connection),
    NotificationClick: notificationClickModel(connection),
    WebhookEndpoint: webhookEndpointModel(connection),
    DeliveryLog: deliveryLogModel(connection),
    InAppMessage: inAppMessageModel(connection),
    DailyCount: dailyCountModel(connection),
    DeviceImport: deviceImportModel(connection),
  };
}

export type Models = ReturnType<typeof createModels>;
