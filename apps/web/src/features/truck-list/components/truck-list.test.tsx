import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { aSession } from '@/testing/data';
import { aTruck, createGateApi, deferred } from '@/testing/gate-api';
import { signedIn } from '@/testing/handlers';
import { renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

describe('Truck List', () => {
  it("shows 'Loading truck data...' while loading", async () => {
    const hold = deferred();
    server.use(
      signedIn(aSession()),
      http.get('/api/truck-list', async () => {
        await hold.promise;
        return HttpResponse.json([]);
      }),
    );
    renderApp('/truck-list');

    expect(await screen.findByText('Loading truck data...')).toBeInTheDocument();
    hold.resolve();
    expect(await screen.findByText('No Trucks Yet')).toBeInTheDocument();
  });

  it('shows the cards and the table with its formats and dashes', async () => {
    const today = new Date();
    today.setHours(7, 4, 5, 0);
    const trucks = [
      aTruck({
        timestamp: today.toISOString(),
        truckNumber: 'ORD-77',
        plateNumber: 'KP35XKGP',
        category: 'contracted',
        transportName: 'Kumba Haulage',
      }),
      aTruck({
        timestamp: '2026-01-05T10:00:00.000Z',
        truckNumber: null,
        plateNumber: 'CA123456',
        category: 'other',
        transportName: null,
      }),
    ];
    server.use(signedIn(aSession()), ...createGateApi({ trucks }).handlers);
    renderApp('/truck-list');

    expect(await screen.findByText('Recent Truck Entries')).toBeInTheDocument();
    expect(screen.getByTestId('summary-Total Trucks')).toHaveTextContent('2');
    expect(screen.getByTestId('summary-With Order Number')).toHaveTextContent('1');
    expect(screen.getByTestId("summary-Today's Arrivals")).toHaveTextContent('1');

    const headers = screen.getAllByRole('columnheader');
    expect(headers.map((cell) => cell.textContent)).toEqual([
      'Date/Time',
      'Truck Number',
      'Plate',
      'Category',
      'Transport',
    ]);
    expect(headers[3]).toHaveClass('hidden', 'md:table-cell');
    expect(headers[4]).toHaveClass('hidden', 'lg:table-cell');

    const [first, second] = screen.getAllByTestId('truck-row');
    expect(first).toHaveTextContent('07:04:05');
    expect(first).toHaveTextContent('ORD-77');
    expect(first).toHaveTextContent('KP 35 XK GP');
    expect(within(first!).getByText('contracted')).toBeInTheDocument();
    expect(first).toHaveTextContent('Kumba Haulage');
    expect(second).toHaveTextContent('Jan 05, 2026');
    const cells = within(second!).getAllByRole('cell');
    expect(cells[1]).toHaveTextContent(/^-$/);
    expect(cells[4]).toHaveTextContent(/^-$/);
  });

  it("says 'No Trucks Yet' when the camera has read none", async () => {
    server.use(signedIn(aSession()), ...createGateApi().handlers);
    renderApp('/truck-list');

    expect(await screen.findByText('No Trucks Yet')).toBeInTheDocument();
    expect(screen.getByTestId('summary-Total Trucks')).toHaveTextContent('0');
  });
});
