// returns deep innerText-like text of the panel, through shadow roots
const frame = page.frames().find((f) => f.url().includes('index.html') && f.name() !== '' ) ;
