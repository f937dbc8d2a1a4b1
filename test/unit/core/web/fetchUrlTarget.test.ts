import assert from 'node:assert/strict';
import { addressKind, checkFetchUrl } from '../../../../src/core/web/fetchUrlTarget';

describe('checkFetchUrl', () => {
  it('takes http and https addresses on the public network', () => {
    assert.equal(checkFetchUrl('https://example.com/a?b=1').kind, 'public');
    assert.equal(checkFetchUrl('http://93.184.216.34/').kind, 'public');
  });

  it('marks this machine and the local network as local', () => {
    for (const url of [
      'http://localhost:3000/',
      'http://api.localhost/',
      'http://127.0.0.1/',
      'http://10.1.2.3/',
      'http://172.16.0.1/',
      'http://192.168.1.1/',
      'http://[::1]/',
      'http://[fd00::1]/',
      'http://0x7f.1/',
    ]) {
      assert.equal(checkFetchUrl(url).kind, 'local', url);
    }
  });

  it("refuses other schemes, credentials and link-local or unspecified hosts, in the user's words", () => {
    assert.throws(() => checkFetchUrl('file:///etc/passwd'), /only http:\/\/ and https:\/\/ addresses, not "file:"/);
    assert.throws(() => checkFetchUrl('ftp://example.com/'), /not "ftp:"/);
    assert.throws(() => checkFetchUrl('javascript:alert(1)'), /not "javascript:"/);
    assert.throws(() => checkFetchUrl('https://user:secret@example.com/'), /does not send credentials/);
    assert.throws(() => checkFetchUrl('https://token@example.com/'), /does not send credentials/);
    assert.throws(() => checkFetchUrl('http://169.254.169.254/latest/meta-data/'), /link-local/);
    assert.throws(() => checkFetchUrl('http://0.0.0.0:8080/'), /link-local, unspecified/);
    assert.throws(() => checkFetchUrl('http://[fe80::1]/'), /link-local/);
    assert.throws(() => checkFetchUrl('http://[::ffff:169.254.169.254]/'), /link-local/);
    assert.throws(() => checkFetchUrl('example.com/page'), /is not a URL: give a full address/);
  });
});

describe('addressKind', () => {
  it('judges IPv4 ranges', () => {
    assert.equal(addressKind('8.8.8.8'), 'public');
    assert.equal(addressKind('172.15.0.1'), 'public');
    assert.equal(addressKind('172.32.0.1'), 'public');
    assert.equal(addressKind('100.64.0.1'), 'local');
    assert.equal(addressKind('100.128.0.1'), 'public');
    assert.equal(addressKind('169.254.1.1'), 'refused');
    assert.equal(addressKind('224.0.0.1'), 'refused');
    assert.equal(addressKind('255.255.255.255'), 'refused');
    assert.equal(addressKind('256.1.1.1'), 'refused');
  });

  it('judges IPv6 ranges, an IPv4-mapped address as its IPv4 address', () => {
    assert.equal(addressKind('2606:4700:4700::1111'), 'public');
    assert.equal(addressKind('::1'), 'local');
    assert.equal(addressKind('::'), 'refused');
    assert.equal(addressKind('fc00::1'), 'local');
    assert.equal(addressKind('fe80::1%eth0'), 'refused');
    assert.equal(addressKind('ff02::1'), 'refused');
    assert.equal(addressKind('::ffff:127.0.0.1'), 'local');
    assert.equal(addressKind('::ffff:7f00:1'), 'local');
    assert.equal(addressKind('::ffff:8.8.8.8'), 'public');
    assert.equal(addressKind('1:2:3:4:5:6:7:8'), 'public');
    assert.equal(addressKind('1:2:3:4:5:6:7'), 'refused');
    assert.equal(addressKind('1::2::3'), 'refused');
    assert.equal(addressKind('not an address'), 'refused');
  });

  it('judges an IPv6 address that carries an IPv4 address (NAT64, 6to4) as that address, and refuses the deprecated IPv4-compatible range', () => {
    assert.equal(addressKind('::7f00:1'), 'refused', '::127.0.0.1 was public: fetched without asking');
    assert.equal(addressKind('::a9fe:a9fe'), 'refused');
    assert.equal(addressKind('::1:0:0:1'), 'public', 'only the first 96 bits zero make an IPv4-compatible address');
    assert.equal(addressKind('64:ff9b::a9fe:a9fe'), 'refused', 'NAT64 to cloud metadata');
    assert.equal(addressKind('64:ff9b::7f00:1'), 'local');
    assert.equal(addressKind('64:ff9b::808:808'), 'public');
    assert.equal(addressKind('64:ff9b:1::a9fe:a9fe'), 'refused');
    assert.equal(addressKind('64:ff9b:2::a9fe:a9fe'), 'public', 'outside both NAT64 prefixes');
    assert.equal(addressKind('64:ff9b:0:0:1::a9fe:a9fe'), 'public');
    assert.equal(addressKind('2002:a9fe:a9fe::1'), 'refused', '6to4 of 169.254.169.254');
    assert.equal(addressKind('2002:c0a8:101::1'), 'local', '6to4 of 192.168.1.1');
    assert.equal(addressKind('2002:808:808::1'), 'public');
    assert.equal(checkFetchUrl('http://[64:ff9b::7f00:1]:8080/').kind, 'local');
    assert.throws(() => checkFetchUrl('http://[::ffff:169.254.169.254]/'), /does not read from \[::ffff:a9fe:a9fe\]: link-local/);
  });

  it('treats the special-purpose ranges of the IANA registries that are not globally reachable as local (asked about), not public', () => {
    for (const address of [
      '198.18.0.1', // benchmarking: local proxies answer DNS with fake IPs here
      '198.19.255.254',
      '192.0.0.1', // IETF protocol assignments
      '192.0.0.170',
      '192.0.2.10', // documentation
      '198.51.100.7',
      '203.0.113.9',
      '192.88.99.1', // deprecated 6to4 relay anycast
      'fec0::1', // deprecated site-local
      'feff::1',
      '::ffff:0:127.0.0.1', // SIIT
      '::ffff:0:8.8.8.8',
      '::ffff:0:c612:1',
      '64:ff9b:1::808:808', // local-use NAT64
      '2001::1', // IETF protocol assignments 2001::/23: Teredo, benchmarking, ORCHID
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
      '2001:2::1',
      '2001:1ff::1',
      '2001:db8::1', // documentation
      '3fff::1',
      '3fff:fff::1',
      '100::1', // discard-only
      '5f00::1', // SRv6
    ]) {
      assert.equal(addressKind(address), 'local', address);
    }
    assert.equal(checkFetchUrl('http://198.18.0.1/').kind, 'local');
    assert.equal(checkFetchUrl('http://[fec0::1]:8080/').kind, 'local');
    assert.equal(checkFetchUrl('http://[::ffff:0:127.0.0.1]/').kind, 'local');
    assert.equal(addressKind('::ffff:0:a9fe:a9fe'), 'refused', 'SIIT of cloud metadata');
    assert.equal(addressKind('240.0.0.1'), 'refused');
    assert.equal(addressKind('100.127.255.255'), 'local');
    for (const address of ['198.17.255.255', '198.20.0.0', '192.0.1.1', '192.0.3.1', '192.88.98.1', '192.31.196.1', '203.0.114.1', '2001:200::1', '2001:4860::8888', '3ff0::1', '3fff:1000::1', '101::1', 'fe00::1', '::fffe:0:808:808']) {
      assert.equal(addressKind(address), 'public', address);
    }
  });
});
